// Brute-force protection for sign-in, and for the password checks of signed-in account changes.
// Failed attempts are counted in Postgres (so every api instance shares the counts) by three
// counters, each stored under a hash:
//
// - 'pair': one sign-in name at one client address (LOGIN_LIMIT_PER_ACCOUNT). An attacker hammering
//   a name from an address slows down only themselves.
// - 'ip': one client address across all names (LOGIN_LIMIT_PER_ADDRESS), against spraying names.
// - 'name': one sign-in name from every address together (LOGIN_LIMIT_PER_NAME), against guessing
//   from many addresses (a botnet, or the 2^64 addresses of one IPv6 /64). So that attackers cannot
//   lock the owner out with it, it holds back only addresses not *known* for the name: one the name
//   signed in from in the last LOGIN_KNOWN_ADDRESS_DAYS (its latest KNOWN_ADDRESSES_PER_NAME) is
//   limited by its own pair and address counters alone.
//
// An IPv6 client is counted, and known, by its /64, which a single host or home usually holds
// whole; an IPv4-mapped address (::ffff:1.2.3.4) is the IPv4 address.
//
// Every counter, and every known address, is kept per sign-in *name*, never per account, and the
// answer to an attempt depends on the typed name's, the pair's and the address's state alone. An
// account has two names, its username and its email, and the link between them is not public.
// Counted together, an attacker could fail five times on `alice`, then try an email from the same
// address and read 429 as "this email is alice's" and 401 as "it is not"; likewise with the
// across-addresses limit, from a fresh address once `alice` had filled it. Whatever a shared
// counter answered, the answer for one name would change with failures on another name exactly
// when both were one account's, so no limit may consult another name's count. The price: an
// account's two names each have their own budget, so unknown addresses get at most twice
// LOGIN_LIMIT_PER_NAME guesses at an account before backing off. Known addresses are per name for
// the same reason: were an address that signed in by username also known for the email, someone
// sharing the owner's address (an office, a carrier's NAT) could fill the email's across-addresses
// limit from elsewhere and see whether the shared address is still let through. Every limit
// answers the same 429 message, so which one refused is not told either, and a refused attempt
// checks no password whichever limit refused it, so it takes no longer for one than another.
//
// A name with no account is counted just like one with (under the typed name, lower-cased), so a
// limit does not tell whether a name has an account. A real account's name is counted under its
// account id and which of its names it is, so spellings that Postgres matches to the same account
// (case, Unicode case folding) share one count.
//
// A signed-in user's own password checks (password change, account deletion) count against both of
// their account's names, so they share sign-in's budget rather than adding to it (a stolen token
// used from many addresses is held back like sign-in). That tells nobody of the link: only who
// holds the account's session can make failures count so, and they know both names already.
//
// A counter below its limit lets attempts through. Once full, it backs off instead of blocking:
// the next attempt waits `backoffSeconds` after the last failure, doubling with each further
// failure, never longer than the window. A counter forgets everything once a whole window passes
// without a new failure, and refused attempts are not counted, so waiting always gets one back in.
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { LoginLimits } from '../config.ts';
import { RateLimited } from '../errors.ts';

/** Addresses remembered per name; signing in from a new one forgets the longest unused. */
export const KNOWN_ADDRESSES_PER_NAME = 10;

export type LoginAttempt = {
  /** The client's address as the app sees it (`request.ip`). */
  address: string;
  /** The names guessed at: `signInNameOf` the typed one, or `namesOfAccount` for a signed-in user. */
  names: string[];
};

type Scope = 'pair' | 'ip' | 'name';
type CounterKey = { scope: Scope; key: string };
type Counter = CounterKey & { failures: number; age: number };

/** The name a sign-in attempt is counted under. */
export function signInNameOf(typed: string, account: { id: number } | null): string {
  // As findUserBySignInName looks names up: one with an @ is an email address.
  if (account) return `user:${account.id}:${typed.includes('@') ? 'email' : 'username'}`;
  return `name:${typed.toLowerCase()}`;
}

/** Both names of an account, for the password checks of its signed-in user. */
export function namesOfAccount(id: number): string[] {
  return [`user:${id}:username`, `user:${id}:email`];
}

/** What an address is counted as: IPv4 as it is, IPv6 by its /64. */
export function addressGroupOf(address: string): string {
  const plain = address.split('%')[0]!; // an IPv6 zone (fe80::1%eth0) names the interface, not a peer
  if (isIP(plain) !== 6) return plain;
  const groups = ipv6GroupsOf(plain);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address. */
function ipv6GroupsOf(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const [head = '', tail] = text.split('::');
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

// Stored as hashes: people sometimes type a password into the name box.
function keyOf(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

function countersOf(attempt: LoginAttempt): CounterKey[] {
  const group = addressGroupOf(attempt.address);
  const counters: CounterKey[] = [
    { scope: 'ip', key: keyOf(group) },
    ...attempt.names.map((name) => ({ scope: 'pair' as const, key: keyOf(`${name}\n${group}`) })),
    ...attempt.names.map((name) => ({ scope: 'name' as const, key: keyOf(name) })),
  ];
  // One order for every attempt, so two attempts never wait on each other's rows crosswise.
  return counters.sort((a, b) => (a.scope + a.key < b.scope + b.key ? -1 : 1));
}

function isAny(counters: CounterKey[]) {
  return sql<SqlBool>`(scope, key) in (${sql.join(counters.map((c) => sql`(${c.scope}, ${c.key})`))})`;
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

/** Whether one of the attempt's names has signed in from its address within the known period. */
async function fromKnownAddress(db: Kysely<DB>, limits: LoginLimits, attempt: LoginAttempt) {
  const row = await db
    .selectFrom('login_known_addresses')
    .select('name_key')
    .where('address_key', '=', keyOf(addressGroupOf(attempt.address)))
    .where('name_key', 'in', attempt.names.map(keyOf))
    .where(
      'last_signed_in_at',
      '>',
      sql<Date>`now() - make_interval(days => ${limits.knownAddressDays}::int)`,
    )
    .executeTakeFirst();
  return row !== undefined;
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
  const counters = countersOf(attempt);
  const known = await fromKnownAddress(db, limits, attempt);
  const limitOf: Record<Scope, number> = {
    pair: limits.perAccount,
    ip: limits.perAddress,
    // A known address is not held back by the name's count (its failures still add to it).
    name: known ? Infinity : limits.perName,
  };
  await db.transaction().execute(async (trx) => {
    await sql`
      insert into login_failures (scope, key, failures, last_failed_at)
      values ${sql.join(counters.map((c) => sql`(${c.scope}, ${c.key}, 0, now())`))}
      on conflict (scope, key) do nothing`.execute(trx);
    // Locked, so parallel attempts on one name or from one client are judged one after the other.
    const { rows } = await sql<Counter>`
      select scope, key, failures, extract(epoch from now() - last_failed_at)::float8 as age
      from login_failures
      where ${isAny(counters)}
      order by scope, key
      for update`.execute(trx);
    const wait = Math.max(
      0,
      ...rows.map((row) =>
        waitOf({ failures: Number(row.failures), age: Number(row.age) }, limitOf[row.scope], limits),
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
      where ${isAny(counters)}`.execute(trx);
  });
  await forgetExpired(db, limits);
}

/**
 * A successful password check clears its names' counters at this address and takes back its claim
 * on the address and on the names overall. Those are not cleared: the owner signing in must not
 * hand attackers elsewhere a fresh allowance.
 */
export async function settleSuccessfulLogin(db: Kysely<DB>, attempt: LoginAttempt): Promise<void> {
  const counters = countersOf(attempt);
  await db
    .deleteFrom('login_failures')
    .where(isAny(counters.filter((c) => c.scope === 'pair')))
    .execute();
  await db
    .updateTable('login_failures')
    .set({ failures: sql`greatest(failures - 1, 0)` })
    .where(isAny(counters.filter((c) => c.scope !== 'pair')))
    .execute();
}

/** Remembers the address a sign-in succeeded from as known for the name it used. */
export async function rememberSignInAddress(
  db: Kysely<DB>,
  limits: LoginLimits,
  attempt: LoginAttempt,
): Promise<void> {
  const addressKey = keyOf(addressGroupOf(attempt.address));
  for (const nameKey of attempt.names.map(keyOf)) {
    await db
      .insertInto('login_known_addresses')
      .values({ name_key: nameKey, address_key: addressKey, last_signed_in_at: sql`now()` })
      .onConflict((oc) =>
        oc.columns(['name_key', 'address_key']).doUpdateSet({ last_signed_in_at: sql`now()` }),
      )
      .execute();
    await sql`
      delete from login_known_addresses
      where name_key = ${nameKey} and address_key not in (
        select address_key from login_known_addresses where name_key = ${nameKey}
        order by last_signed_in_at desc
        limit ${KNOWN_ADDRESSES_PER_NAME}
      )`.execute(db);
  }
  await sql`
    delete from login_known_addresses where (name_key, address_key) in (
      select name_key, address_key from login_known_addresses
      where last_signed_in_at <= now() - make_interval(days => ${limits.knownAddressDays}::int)
      limit 50
    )`.execute(db);
}

/**
 * A deleted account's sign-in traces: the addresses its names signed in from and the counts of its
 * names across addresses. (A count of one name at one address is keyed by the address too, which
 * is kept only as a hash, so it is left to expire with its window.)
 */
export async function forgetSignInsOf(trx: Kysely<DB>, userId: number): Promise<void> {
  const nameKeys = namesOfAccount(userId).map(keyOf);
  await trx.deleteFrom('login_known_addresses').where('name_key', 'in', nameKeys).execute();
  await trx.deleteFrom('login_failures').where('scope', '=', 'name').where('key', 'in', nameKeys).execute();
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
