// Brute-force protection for sign-in. Failed attempts are counted in Postgres (so every api
// instance shares the counts) per account *at one client address*, and per address across all
// accounts. Counting per (account, address) means an attacker hammering an account slows down only
// themselves: its owner, signing in from an address with no failures, gets straight through.
//
// A counter below its limit lets attempts through. Once full, it backs off instead of blocking:
// the next attempt waits `backoffSeconds` after the last failure, doubling with each further
// failure, never longer than the window. A counter forgets everything once a whole window passes
// without a new failure, and refused attempts are not counted, so waiting always gets one back in.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { LoginLimits } from '../config.ts';
import { RateLimited } from '../errors.ts';

/**
 * `account` names the account when the sign-in name belongs to one (so its username and email
 * share a counter), else the typed name, which is counted just the same: a limit must not reveal
 * whether a name has an account.
 */
export type LoginAttempt = { address: string; account: string };

type Scope = 'pair' | 'ip';
type Counter = { scope: Scope; key: string; failures: number; age: number };

// Stored as hashes: people sometimes type a password into the name box.
function keyOf(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

function keysOf(attempt: LoginAttempt): Record<Scope, string> {
  return { pair: keyOf(`${attempt.account}\n${attempt.address}`), ip: keyOf(attempt.address) };
}

/** Seconds the counter still makes the client wait before another attempt (0: go ahead). */
export function waitOf(
  counter: { failures: number; age: number },
  limit: number,
  limits: LoginLimits,
): number {
  if (counter.age >= limits.windowSeconds || counter.failures < limit) return 0;
  const backoff = limits.backoffSeconds * 2 ** Math.min(counter.failures - limit, 30);
  return Math.max(0, Math.min(limits.windowSeconds, backoff) - counter.age);
}

/**
 * Counts this attempt as a failure before the password is checked, so parallel guesses cannot
 * slip past the limit (a success takes it back). Throws RateLimited, counting nothing, while the
 * client must wait.
 */
export async function claimLoginAttempt(
  db: Kysely<DB>,
  limits: LoginLimits,
  attempt: LoginAttempt,
): Promise<void> {
  const keys = keysOf(attempt);
  await db.transaction().execute(async (trx) => {
    await sql`
      insert into login_failures (scope, key, failures, last_failed_at)
      values ('pair', ${keys.pair}, 0, now()), ('ip', ${keys.ip}, 0, now())
      on conflict (scope, key) do nothing`.execute(trx);
    // Locked, so parallel attempts of one client are judged one after the other.
    const { rows } = await sql<Counter>`
      select scope, key, failures, extract(epoch from now() - last_failed_at)::float8 as age
      from login_failures
      where (scope = 'pair' and key = ${keys.pair}) or (scope = 'ip' and key = ${keys.ip})
      order by scope
      for update`.execute(trx);
    const limitOf = (scope: Scope) => (scope === 'pair' ? limits.perAccount : limits.perAddress);
    const wait = Math.max(
      0,
      ...rows.map((row) =>
        waitOf({ failures: Number(row.failures), age: Number(row.age) }, limitOf(row.scope), limits),
      ),
    );
    if (wait > 0) {
      const seconds = Math.max(1, Math.ceil(wait));
      throw new RateLimited(
        `Too many failed sign-in attempts. Please wait ${describeWait(seconds)} and try again.`,
        seconds,
      );
    }
    await sql`
      update login_failures set
        failures = case
          when last_failed_at <= now() - make_interval(secs => ${limits.windowSeconds}::double precision) then 1
          else failures + 1
        end,
        last_failed_at = now()
      where (scope = 'pair' and key = ${keys.pair}) or (scope = 'ip' and key = ${keys.ip})`.execute(trx);
  });
  await forgetExpired(db, limits);
}

/** A successful sign-in clears its (account, address) counter and takes back its claim on the address. */
export async function settleSuccessfulLogin(db: Kysely<DB>, attempt: LoginAttempt): Promise<void> {
  const keys = keysOf(attempt);
  await db.deleteFrom('login_failures').where('scope', '=', 'pair').where('key', '=', keys.pair).execute();
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
