// Whether the signed-in user has saved a cat or bodega, and toggling it with the product's toasts.
// The detail response says where it starts (`saved`); a toggle moves it once the server agrees.
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { useSession } from '../../auth/index.ts';
import { errorMessage } from '../../../lib/api.ts';

export type SavedFlagOptions = {
  id: number;
  /** 'cats' or 'bodegas', as the toasts say it. */
  noun: 'cats' | 'bodegas';
  /** The detail response's `saved` for this item. */
  saved: boolean;
  setSaved(id: number, saved: boolean): Promise<boolean>;
};

export type SavedFlag = { saved: boolean; busy: boolean; toggle(): Promise<void> };

export function useSavedFlag({ id, noun, saved: loaded, setSaved }: SavedFlagOptions): SavedFlag {
  const userId = useSession((s) => s.user?.id ?? null);
  const [saved, setSavedState] = useState(loaded);
  const [source, setSource] = useState({ id, loaded });
  const [busy, setBusy] = useState(false);

  // Another item, or a fresh load of this one, says again where the flag stands.
  if (source.id !== id || source.loaded !== loaded) {
    setSource({ id, loaded });
    setSavedState(loaded);
  }

  async function toggle() {
    if (userId === null) {
      toast.error(`Please log in to save ${noun}`);
      return;
    }
    if (busy) return;
    setBusy(true);
    try {
      const now = await setSaved(id, !saved);
      setSavedState(now);
      toast.success(now ? `Added to saved ${noun}` : `Removed from saved ${noun}`);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to update saved status'));
    } finally {
      setBusy(false);
    }
  }

  // Signed out (say, a session that just expired) nothing is saved.
  return { saved: userId !== null && saved, busy, toggle };
}
