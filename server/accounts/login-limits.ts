// Brute-force protection for sign-in: failed attempts are counted per client address and per
// sign-in name in Postgres, so every api instance shares the counts. A counter forgets its
// failures once a whole window passes without a new one; while it is full, sign-in answers 429
// until a window after the last counted failure (attempts refused meanwhile do not extend it, so
// no one is locked out for good).
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { LoginLimits } from '../config.ts';
import { RateLimited } from '../errors.ts';

export type LoginAttempt = { address: string; name: string };

// Stored as hashes: people sometimes type a password into the name box.
function keyOf(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

function keysOf(attempt: LoginAttempt) {
  return { account: keyOf(attempt.name.toLowerCase()), ip: keyOf(attempt.address) };
}

/**
 * Counts this attempt against both limits before the password is checked, so parallel guesses
 * cannot slip past the limit. Throws RateLimited when either counter is full.
 */
export async function claimLoginAttempt(
  db: Kysely<DB>,
  limits: LoginLimits,
  attempt: LoginAttempt,
): Promise<void> {
  const keys = keysOf(attempt);
  const window = sql`make_interval(secs => ${limits.windowSeconds}::double precision)`;
  const limit = sql`case when f.scope = 'account' then ${limits.perAccount}::int else ${limits.perAddress}::int end`;
  const { rows } = await sql<{ scope: 'account' | 'ip'; failures: number; retry_after: number }>`
    insert into login_failures as f (scope, key, failures, last_failed_at)
    values ('account', ${keys.account}, 1, now()), ('ip', ${keys.ip}, 1, now())
    on conflict (scope, key) do update set
      failures = case when f.last_failed_at <= now() - ${window} then 1 else f.failures + 1 end,
      last_failed_at = case
        when f.last_failed_at <= now() - ${window} or f.failures < ${limit} then now()
        else f.last_failed_at
      end
    returning scope, failures,
      greatest(1, ceil(extract(epoch from (last_failed_at + ${window} - now()))))::int as retry_after`.execute(
    db,
  );
  const full = rows.filter(
    (row) => Number(row.failures) > (row.scope === 'account' ? limits.perAccount : limits.perAddress),
  );
  if (full.length > 0) {
    const retryAfter = Math.max(...full.map((row) => Number(row.retry_after)));
    throw new RateLimited(
      `Too many failed sign-in attempts. Please wait ${describeWait(retryAfter)} and try again.`,
      retryAfter,
    );
  }
  await forgetExpired(db, limits);
}

/** A successful sign-in clears its name's counter and takes back its claim on the address. */
export async function settleSuccessfulLogin(db: Kysely<DB>, attempt: LoginAttempt): Promise<void> {
  const keys = keysOf(attempt);
  await db
    .deleteFrom('login_failures')
    .where('scope', '=', 'account')
    .where('key', '=', keys.account)
    .execute();
  await db
    .updateTable('login_failures')
    .set({ failures: sql`greatest(failures - 1, 0)` })
    .where('scope', '=', 'ip')
    .where('key', '=', keys.ip)
    .execute();
}

// A little housekeeping per attempt keeps the table from growing with names tried once long ago.
async function forgetExpired(db: Kysely<DB>, limits: LoginLimits): Promise<void> {
  await sql`
    delete from login_failures where (scope, key) in (
      select scope, key from login_failures
      where last_failed_at <= now() - make_interval(secs => ${limits.windowSeconds}::double precision)
      limit 50
    )`.execute(db);
}

function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
