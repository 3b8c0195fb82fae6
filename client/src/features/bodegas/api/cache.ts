// How the cache changes with its creator's own writes to a bodega, in one place: an edit or a
// deletion leaves the bodega's cached page stale, and its cats' pages (which show its name and
// address, and go with it), to be read again when next shown. (The live stream brings the change
// to every screen that shows them meanwhile.)
import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';

export function bodegaChanged(client: QueryClient, id: number): void {
  void client.invalidateQueries({ queryKey: queryKeys.bodega(id) });
  void client.invalidateQueries({ queryKey: queryKeys.cats });
}
