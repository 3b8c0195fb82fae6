// What a report command needs to know of its reporter: whether their report may count toward
// hiding (their standing, REPORTER_MIN_ACCOUNT_AGE_HOURS) and whether they have reports left today
// (REPORTS_PER_DAY). Both are read inside the report's transaction, under the reporter's lock
// (reporterLock, events/locks.ts).
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { RateLimited } from '../errors.ts';
import type { ReporterStanding } from './target.ts';

export type ReportRules = {
  /** An account younger than this does not count toward hiding; 0: any age counts. */
  minAccountAgeHours: number;
  /** Reports one account may file in 24 hours; 0: no limit. */
  perDay: number;
};

/**
 * Established: the account is at least `minAccountAgeHours` old AND has contributed something that
 * moderation has not hidden (a cat or bodega they added, a review, or a processed photo). Age alone
 * would let accounts made in bulk and left to wait count; a contribution alone costs a throwaway
 * one request. Both together make each counted report come from an account with a visible record
 * that moderators can weigh (and hide, which takes its standing away for later reports).
 */
export async function reporterStanding(
  trx: Kysely<DB>,
  userId: number,
  rules: ReportRules,
): Promise<ReporterStanding> {
  const { rows } = await sql<{ established: boolean }>`
    select u.created_at <= now() - make_interval(hours => ${rules.minAccountAgeHours})
      and (exists (select 1 from cats where created_by = u.id and not hidden)
        or exists (select 1 from bodegas where created_by = u.id and not hidden)
        or exists (select 1 from reviews where user_id = u.id and not hidden)
        or exists (select 1 from photos where uploaded_by = u.id and not hidden and status = 'ready'))
      as established
    from users u where u.id = ${userId}`.execute(trx);
  return { established: rows[0]?.established === true };
}

/**
 * Refuses (429, with Retry-After) a report over the daily limit: the moment the perDay-th most
 * recent report of the last 24 hours leaves the window, the count drops below the limit. Reports
 * refused for any reason were never recorded, so they do not count; deciding on them does not give
 * any back.
 */
export async function refuseOverDailyLimit(
  trx: Kysely<DB>,
  userId: number,
  rules: ReportRules,
): Promise<void> {
  if (rules.perDay <= 0) return;
  const { rows } = await sql<{ wait: number }>`
    select extract(epoch from created_at + interval '1 day' - now()) as wait
    from reports
    where user_id = ${userId} and created_at > now() - interval '1 day'
    order by created_at desc
    offset ${rules.perDay - 1} limit 1`.execute(trx);
  if (!rows[0]) return;
  const seconds = Math.max(1, Math.ceil(Number(rows[0].wait)));
  throw new RateLimited(
    `Report limit reached: at most ${rules.perDay} reports a day. Try again in ${seconds} seconds.`,
    seconds,
  );
}
