// One catalogue item's page data from the query cache, which the live stream keeps current: the
// open page shows changes without a reload, a `reset` or a reconnection refetches quietly, and a
// 404 (or a deletion, which the cache records as null) turns the page into its missing state.
import { useQuery, useQueryClient, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect } from 'react';
import toast from 'react-hot-toast/headless';
import { useLiveCatchUp, useLiveStream } from '../../live/index.ts';

export type DetailState<Data> =
  { status: 'loading' } | { status: 'missing' } | { status: 'failed' } | ({ status: 'ready' } & Data);

type DetailQuery<Data, Key extends QueryKey> = (
  id: number,
) => UseQueryOptions<Data | null, Error, Data | null, Key>;

/** `failure` is the toast of a failed load, e.g. 'Failed to load cat details'. */
export function useLiveDetail<Data extends object, Key extends QueryKey>(
  id: number,
  detailQuery: DetailQuery<Data, Key>,
  failure: string,
): DetailState<Data> & { reload(): void } {
  const valid = Number.isInteger(id) && id > 0;
  const options = detailQuery(id);
  const query = useQuery({ ...options, enabled: valid });
  const client = useQueryClient();
  const failed = query.isError && query.data === undefined && !query.isFetching;

  useEffect(() => {
    if (failed) toast.error(failure);
  }, [failed, failure]);
  useLiveStream(valid);
  // Events sent before the socket opened are not replayed: read the item again quietly.
  useLiveCatchUp(() => void client.invalidateQueries({ queryKey: options.queryKey, exact: true }));

  const reload = () => void query.refetch();
  if (!valid || query.data === null) return { status: 'missing', reload };
  if (query.data) return { status: 'ready', ...query.data, reload };
  return failed ? { status: 'failed', reload } : { status: 'loading', reload };
}
