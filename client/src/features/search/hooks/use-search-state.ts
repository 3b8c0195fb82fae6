import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { parseSearchState, serializeSearchState, type SearchState } from '../model/search-state.ts';

/**
 * The search described by the URL, and a setter that writes a new one back. A submitted search or
 * a tab switch adds a history entry; filter tweaks replace the current one.
 */
export function useSearchState(): [SearchState, (next: SearchState, options?: { push?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the string key is the identity
  const state = useMemo(() => parseSearchState(params), [key]);
  const setState = useCallback(
    (next: SearchState, options: { push?: boolean } = {}) => {
      setParams(serializeSearchState(next), { replace: !options.push });
    },
    [setParams],
  );
  return [state, setState];
}
