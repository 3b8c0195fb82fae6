// Whether the signed-in user has saved a cat or bodega, and toggling it with the product's toasts.
// The item's page data says where it stands (`saved`, from the detail response); a toggle changes it
// there once the server agrees (api/cache.ts).
import toast from 'react-hot-toast/headless';
import { errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../auth/index.ts';
import { useSetSavedMutation } from '../api/set-saved.ts';
import type { SavedKind } from '../types.ts';

export type SavedFlagOptions = {
  /** 'cats' or 'bodegas', as the toasts say it. */
  kind: SavedKind;
  id: number;
  /** The item's page data's `saved`. */
  saved: boolean;
};

export type SavedFlag = { saved: boolean; busy: boolean; toggle(): Promise<void> };

export function useSavedFlag({ kind, id, saved }: SavedFlagOptions): SavedFlag {
  const userId = useSession((s) => s.user?.id ?? null);
  const change = useSetSavedMutation();

  async function toggle() {
    if (userId === null) {
      toast.error(`Please log in to save ${kind}`);
      return;
    }
    if (change.isPending) return;
    try {
      const now = await change.mutateAsync({ kind, id, saved: !saved });
      toast.success(now ? `Added to saved ${kind}` : `Removed from saved ${kind}`);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to update saved status'));
    }
  }

  // Signed out (say, a session that just expired) nothing is saved.
  return { saved: userId !== null && saved, busy: change.isPending, toggle };
}
