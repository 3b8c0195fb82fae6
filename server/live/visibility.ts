// Whether a live message may go out, decided by the items it shows as they stand when it is sent,
// not when it was built: a frame is built once and kept (broadcaster.ts), and what it shows may
// have been hidden or deleted since. Every send, live or replayed, asks the read tables again.
import { sql, type Kysely } from 'kysely';
import type { DB, ModerationTargetType } from '../db/schema.ts';

/**
 * An item a message shows, and how the message depends on it:
 * - 'item': the message is about the cat, bodega or photo: withheld while it is hidden. Once its
 *   row is gone it was deleted, and its own deletion message follows in the log; it is withheld
 *   only if moderation had hidden it (moderation_items outlives the row).
 * - 'text': the message carries the review's or photo's own content: withheld once it is hidden
 *   or deleted (its author's, a moderator's or an account deletion's).
 * - 'primary': the photo the message shows as its target's primary: once it is hidden or gone the
 *   message is built again, with the target's primary as it then stands.
 */
export type Subject = { type: ModerationTargetType; id: number; as: 'item' | 'text' | 'primary' };

export type Verdict = 'send' | 'withhold' | 'rebuild';

type State = 'shown' | 'hidden' | 'gone';

export type ItemStates = (subject: Pick<Subject, 'type' | 'id'>) => State;

const key = (type: string, id: number) => `${type}:${id}`;

/** The current state of every item the subjects name, in one statement. */
export async function itemStates(db: Kysely<DB>, subjects: readonly Subject[]): Promise<ItemStates> {
  const ids: Record<ModerationTargetType, Set<number>> = {
    cat: new Set(),
    bodega: new Set(),
    review: new Set(),
    photo: new Set(),
  };
  for (const s of subjects) ids[s.type].add(s.id);
  const rows = new Map<string, boolean>();
  const moderated = new Set<string>();
  if (subjects.length > 0) {
    const [cats, bodegas, reviews, photos] = (['cat', 'bodega', 'review', 'photo'] as const).map((t) => [
      ...ids[t],
    ]);
    // `hidden` null marks a row of moderation_items: the item is hidden there, whether or not its
    // own row is still there.
    const result = await sql<{ type: ModerationTargetType; id: string | number; hidden: boolean | null }>`
      select 'cat' as type, id, hidden from cats where id = any(${cats}::bigint[])
      union all select 'bodega', id, hidden from bodegas where id = any(${bodegas}::bigint[])
      union all select 'review', id, hidden from reviews where id = any(${reviews}::bigint[])
      union all select 'photo', id, hidden from photos where id = any(${photos}::bigint[])
      union all select target_type, target_id, null from moderation_items
        where hidden and (
          (target_type = 'cat' and target_id = any(${cats}::bigint[]))
          or (target_type = 'bodega' and target_id = any(${bodegas}::bigint[]))
          or (target_type = 'review' and target_id = any(${reviews}::bigint[]))
          or (target_type = 'photo' and target_id = any(${photos}::bigint[])))`.execute(db);
    for (const row of result.rows) {
      const k = key(row.type, Number(row.id));
      if (row.hidden === null) moderated.add(k);
      else rows.set(k, row.hidden);
    }
  }
  return ({ type, id }) => {
    const hidden = rows.get(key(type, id));
    if (hidden !== undefined) return hidden ? 'hidden' : 'shown';
    return moderated.has(key(type, id)) ? 'hidden' : 'gone';
  };
}

/** What becomes of a message whose items now stand as `states` says. */
export function verdictOf(subjects: readonly Subject[], states: ItemStates): Verdict {
  let verdict: Verdict = 'send';
  for (const subject of subjects) {
    const state = states(subject);
    if (state === 'shown') continue;
    if (subject.as === 'primary') verdict = 'rebuild';
    else if (subject.as === 'text' || state === 'hidden') return 'withhold';
  }
  return verdict;
}
