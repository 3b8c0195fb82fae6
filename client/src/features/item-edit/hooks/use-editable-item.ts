// Loads the cat or bodega an edit screen is about (the `:id` of its route), as a snapshot of its
// own: the live stream does not change it under the form (the version the form was opened with is
// what the server compares a save against). A reload after a conflict brings the latest version
// under a new key, so the form starts again from it.
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import toast from 'react-hot-toast/headless';
import { useNavigate, useParams } from 'react-router-dom';
import { nullWhenMissing } from '../../../lib/api.ts';
import type { TargetType } from '../../../lib/catalogue.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { ITEM_WORDS } from '../../../components/item-kinds.ts';

export type EditableItemState<T> =
  { status: 'loading' } | { status: 'missing' } | { status: 'ready'; data: T; key: number };

export function useEditableItem<T>(
  kind: TargetType,
  fetchItem: (id: number, signal?: AbortSignal) => Promise<T>,
): { loaded: EditableItemState<T>; reload(): void } {
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const navigate = useNavigate();
  const query = useQuery({
    queryKey: queryKeys.editable(kind, id),
    queryFn: ({ signal }) => nullWhenMissing(fetchItem(id, signal)),
    enabled: valid,
  });

  useEffect(() => {
    if (!query.isError) return;
    toast.error(`Failed to load ${ITEM_WORDS[kind].noun} details`);
    void navigate('/search', { replace: true });
  }, [query.isError, kind, navigate]);

  const reload = () => void query.refetch();
  if (!valid || query.data === null) return { loaded: { status: 'missing' }, reload };
  if (query.data === undefined) return { loaded: { status: 'loading' }, reload };
  return { loaded: { status: 'ready', data: query.data, key: query.dataUpdatedAt }, reload };
}
