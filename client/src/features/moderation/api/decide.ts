import type {
  DecisionResponse,
  ModerationAction,
  ModerationTargetType,
  QueueItem,
} from '../../../../../contract/moderation.ts';
import { api } from '../../../lib/api.ts';

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
