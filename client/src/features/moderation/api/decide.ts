import { mutationOptions, useMutation } from '@tanstack/react-query';
import type {
  DecisionResponse,
  ModerationAction,
  ModerationTargetType,
  QueueItem,
} from '../../../../../contract/moderation.ts';
import { api } from '../../../lib/api.ts';
import { queueItemDecided } from './cache.ts';

export type Decision = { type: ModerationTargetType; id: number; action: ModerationAction; note: string };

/** A moderator's hide, restore or dismiss; answers the item as it now stands. */
export async function decide(
  type: ModerationTargetType,
  id: number,
  action: ModerationAction,
  note: string,
): Promise<QueueItem> {
  const body = await api.post<DecisionResponse>(`/api/moderation/${type}/${id}`, {
    action,
    ...(note ? { note } : {}),
  });
  return body.item;
}

/** Decides on a reported item; the cached queue shows the item as the server answered it. */
export const decideMutation = mutationOptions({
  mutationFn: ({ type, id, action, note }: Decision) => decide(type, id, action, note),
  onSuccess: (item, _decision, _context, { client }) => queueItemDecided(client, item),
});

export function useDecideMutation() {
  return useMutation(decideMutation);
}
