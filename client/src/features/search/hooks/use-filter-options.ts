import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { getFilterOptions, type FilterOptions } from '../api/get-filter-options.ts';
import { failureMessage } from '../model/errors.ts';

const EMPTY: FilterOptions = { breeds: [], personalities: [] };

/** Breeds and personalities for the dropdowns, loaded once `enabled` turns true. */
export function useFilterOptions(enabled: boolean) {
  const [options, setOptions] = useState<FilterOptions>(EMPTY);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!enabled) return;
    let current = true;
    getFilterOptions()
      .then((loaded) => {
        if (!current) return;
        setOptions({ breeds: loaded.breeds ?? [], personalities: loaded.personalities ?? [] });
        setFailed(false);
      })
      .catch((error: unknown) => {
        if (!current) return;
        setFailed(true);
        toast.error(failureMessage('Failed to load filter options: ', error));
      });
    return () => {
      current = false;
    };
  }, [enabled, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { options, failed, retry };
}
