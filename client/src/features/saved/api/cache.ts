// How the cache changes when the user saves or unsaves a cat or bodega, in one place: the flag on
// the item's page, and the saved lists.
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { BodegaResponse, CatResponse } from '../../../lib/catalogue.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { withoutItem, type SavedPage } from '../saved-pages.ts';
import type { SavedKind } from '../types.ts';

export function savedChanged(client: QueryClient, kind: SavedKind, id: number, saved: boolean): void {
  if (kind === 'cats') {
    client.setQueryData<CatResponse | null>(
      queryKeys.cat(id),
      (d) => d && { ...d, cat: { ...d.cat, saved } },
    );
  } else {
    client.setQueryData<BodegaResponse | null>(
      queryKeys.bodega(id),
      (d) => d && { ...d, bodega: { ...d.bodega, saved } },
    );
  }
  // An unsaved item leaves its list at once; a newly saved one comes with the list's next read.
  if (saved) void client.invalidateQueries({ queryKey: queryKeys.saved(kind) });
  else
    client.setQueryData<InfiniteData<SavedPage<{ id: number }>>>(
      queryKeys.saved(kind),
      (data) => data && withoutItem(data, id),
    );
}
