import { queryOptions } from '@tanstack/react-query';
import { api, nullWhenMissing } from '../../../lib/api.ts';
import type { BodegaResponse } from '../../../lib/catalogue.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { readThroughLive } from '../../live/index.ts';

/** A bodega with its cats (records a recently viewed entry when signed in). */
export function getBodega(id: number, signal?: AbortSignal): Promise<BodegaResponse> {
  return api.get<BodegaResponse>(`/api/bodegas/${id}`, { signal });
}

/** A bodega's page data in the cache; null when there is no such bodega (any more). */
export function bodegaQuery(id: number) {
  return queryOptions({
    queryKey: queryKeys.bodega(id),
    queryFn: ({ queryKey, signal }) =>
      readThroughLive(queryKey, () => nullWhenMissing(getBodega(id, signal))),
  });
}
