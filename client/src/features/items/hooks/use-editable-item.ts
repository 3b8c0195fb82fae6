// Loads the cat or bodega an edit screen is about (the `:id` of its route). A reload after a
// conflict brings the latest version under a new key, so the form starts again from it.
import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../../../lib/api.ts';
import type { TargetType } from '../../../lib/catalogue.ts';
import { ITEM_WORDS } from '../kinds.ts';

export type EditableItemState<T> =
  { status: 'loading' } | { status: 'missing' } | { status: 'ready'; data: T; key: number };

export function useEditableItem<T>(
  kind: TargetType,
  fetchItem: (id: number) => Promise<T>,
): { loaded: EditableItemState<T>; reload(): void } {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const [loaded, setLoaded] = useState<EditableItemState<T>>({ status: 'loading' });

  const load = useCallback(async () => {
    if (!Number.isInteger(id) || id <= 0) return setLoaded({ status: 'missing' });
    try {
      const data = await fetchItem(id);
      setLoaded({ status: 'ready', data, key: Date.now() });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return setLoaded({ status: 'missing' });
      toast.error(`Failed to load ${ITEM_WORDS[kind].noun} details`);
      void navigate('/search', { replace: true });
    }
  }, [id, kind, fetchItem, navigate]);

  useEffect(() => {
    void load();
  }, [load]);

  return { loaded, reload: () => void load() };
}
