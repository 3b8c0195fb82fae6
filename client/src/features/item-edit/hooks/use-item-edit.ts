// Saving and deleting from a cat's or bodega's edit form: one request at a time, with the product's
// toasts. A 409 means someone else changed the item since it was loaded: the form turns stale.
import type { UseMutationResult } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast/headless';
import { useNavigate } from 'react-router-dom';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import type { TargetType } from '../../../lib/catalogue.ts';
import { itemPath, ITEM_WORDS } from '../../../components/item-kinds.ts';

/**
 * One of the form's writes: its mutation, whose state the form shows (busy while it runs, and once
 * it succeeded, when the page is on its way elsewhere), and the call that sends it through it.
 */
export type ItemWrite = {
  request: Pick<UseMutationResult, 'isPending' | 'isSuccess'>;
  send(): Promise<unknown>;
};

export type ItemEditOptions = {
  kind: TargetType;
  itemId: number;
  /** Asked before deleting; no means nothing is sent. */
  deleteConfirmation: string;
  /** Sends the edit, with the loaded version. */
  save: ItemWrite;
  /** Deletes the item, with the loaded version. */
  remove: ItemWrite;
};

const sent = ({ request }: ItemWrite) => request.isPending || request.isSuccess;

export type ItemEdit = {
  busy: 'save' | 'delete' | null;
  stale: boolean;
  submit(event: FormEvent): Promise<void>;
  confirmAndDelete(): Promise<void>;
  cancel(): void;
};

export function useItemEdit({ kind, itemId, deleteConfirmation, save, remove }: ItemEditOptions): ItemEdit {
  const navigate = useNavigate();
  const busy = sent(save) ? 'save' : sent(remove) ? 'delete' : null;
  const [stale, setStale] = useState(false);
  const { noun, title } = ITEM_WORDS[kind];

  function conflict(error: unknown): boolean {
    if (!(error instanceof ApiError) || error.status !== 409) return false;
    setStale(true);
    toast.error(error.message);
    return true;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    try {
      await save.send();
      toast.success(`${title} updated successfully!`);
      void navigate(itemPath(kind, itemId));
    } catch (error) {
      if (!conflict(error)) toast.error(errorMessage(error, `Failed to update ${noun}`));
    }
  }

  async function confirmAndDelete() {
    if (busy || !window.confirm(deleteConfirmation)) return;
    try {
      await remove.send();
      toast.success(`${title} deleted successfully!`);
      void navigate('/search', { replace: true });
    } catch (error) {
      if (!conflict(error)) toast.error(errorMessage(error, `Failed to delete ${noun}`));
    }
  }

  return { busy, stale, submit, confirmAndDelete, cancel: () => navigate(itemPath(kind, itemId)) };
}
