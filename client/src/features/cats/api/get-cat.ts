import { queryOptions } from '@tanstack/react-query';
import { api, nullWhenMissing } from '../../../lib/api.ts';
import type { CatResponse } from '../../../lib/catalogue.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { readThroughLive } from '../../live/index.ts';

/** A cat with its bodega (records a recently viewed entry when signed in). */
export function getCat(id: number, signal?: AbortSignal): Promise<CatResponse> {
  return api.get<CatResponse>(`/api/cats/${id}`, { signal });
}

/** A cat's page data in the cache; null when there is no such cat (any more). */
export function catQuery(id: number) {
  return queryOptions({
    queryKey: queryKeys.cat(id),
    queryFn: ({ queryKey, signal }) => readThroughLive(queryKey, () => nullWhenMissing(getCat(id, signal))),
  });
}
