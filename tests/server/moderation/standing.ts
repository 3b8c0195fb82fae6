// Reporters whose reports count toward hiding (server/moderation/reporters.ts): an account old
// enough, with a contribution moderation has not hidden. Test people are made on the spot, so this
// dates an account back and gives it a review.
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { request, type Person } from '../../helpers/world.ts';

/** Makes the account `days` old (older than REPORTER_MIN_ACCOUNT_AGE_HOURS' default of 72 hours). */
export async function ageAccount(t: TestApp, who: Person, days = 4): Promise<void> {
  await t.services.database.db
    .updateTable('users')
    .set({ created_at: sql`now() - make_interval(days => ${days})` })
    .where('id', '=', who.id)
    .execute();
}

/** An old account with a review of the cat: its reports count. */
export async function establish(t: TestApp, who: Person, catId: number): Promise<void> {
  await ageAccount(t, who);
  const review = await request(t, 'POST', '/api/reviews', {
    as: who,
    body: { cat_id: catId, rating: 4, comment: 'A regular here' },
  });
  expect(review.status).toBe(201);
}
