// How the cache changes with its creator's own writes to a cat, in one place: an edit or a
// deletion leaves the cat's cached page stale, to be read again when next shown. (The live stream
// brings the change to every screen that shows the cat meanwhile.)
import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';

export function catChanged(client: QueryClient, id: number): void {
  void client.invalidateQueries({ queryKey: queryKeys.cat(id) });
}
