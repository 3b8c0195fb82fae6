import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import toast from 'react-hot-toast/headless';
import { filterOptionsQuery, type FilterOptions } from '../api/get-filter-options.ts';
import { failureMessage } from '../model/errors.ts';

const EMPTY: FilterOptions = { breeds: [], personalities: [] };

/** Breeds and personalities for the dropdowns, loaded once `enabled` turns true. */
export function useFilterOptions(enabled: boolean) {
  const query = useQuery({ ...filterOptionsQuery, enabled });
  const { error, refetch } = query;
  useEffect(() => {
    if (error) toast.error(failureMessage('Failed to load filter options: ', error));
  }, [error]);
  const retry = useCallback(() => void refetch(), [refetch]);
  return { options: query.data ?? EMPTY, failed: query.isError, retry };
}
