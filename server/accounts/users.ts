// The users table: credentials live here and nowhere else (not in events, not in responses).
// The mapper below is the only way a user row leaves this module.
import { sql, type Kysely } from 'kysely';
import type { DB, UserRow } from '../db/schema.ts';
import type { Role } from '../../contract/users.ts';

/** A user as the caller may see themselves: never the password hash. */
export type OwnUser = { id: number; username: string; email: string; role: Role };

export type UserWithCredentials = OwnUser & { passwordHash: string; tokenVersion: number };

type RoleColumn = { moderator: boolean };

/** Whether the user is a moderator: the moderation domain's projection keeps the list. */
const isModerator = sql<boolean>`exists (select 1 from moderators m where m.user_id = users.id)`;

export function toOwnUser(row: Pick<UserRow, 'id' | 'username' | 'email'> & RoleColumn): OwnUser {
  return {
    id: Number(row.id),
    username: row.username,
    email: row.email,
    role: row.moderator ? 'moderator' : 'member',
  };
}

export async function findUserById(db: Kysely<DB>, id: number): Promise<OwnUser | null> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'username', 'email', isModerator.as('moderator')])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toOwnUser(row) : null;
}

/** A user's id by username (case-insensitive), for operator commands. */
export async function findUserIdByUsername(db: Kysely<DB>, username: string): Promise<number | null> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(username)`, '=', sql`lower(${username})`)
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** Sign-in accepts a username or an email address; usernames cannot contain '@'. */
export async function findUserBySignInName(
  db: Kysely<DB>,
  name: string,
): Promise<UserWithCredentials | null> {
  // No name or address holds a NUL, and Postgres text cannot carry one: it names no one.
  if (name.includes('\u0000')) return null;
  const column = name.includes('@') ? 'email' : 'username';
  const row = await selectCredentials(db)
    .where(sql`lower(${sql.ref(column)})`, '=', sql`lower(${name})`)
    .executeTakeFirst();
  return row ? toCredentials(row) : null;
}

export async function findCredentialsById(db: Kysely<DB>, id: number): Promise<UserWithCredentials | null> {
  const row = await selectCredentials(db).where('id', '=', id).executeTakeFirst();
  return row ? toCredentials(row) : null;
}

function selectCredentials(db: Kysely<DB>) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'password_hash', 'token_version', isModerator.as('moderator')]);
}

function toCredentials(
  row: Pick<UserRow, 'id' | 'username' | 'email' | 'password_hash' | 'token_version'> & RoleColumn,
): UserWithCredentials {
  return { ...toOwnUser(row), passwordHash: row.password_hash, tokenVersion: Number(row.token_version) };
}

/**
 * Replaces the password and raises the token version, only while `previousHash` is still the
 * stored one (a concurrent change wins, and this one changes nothing). Answers the new version,
 * or null when nothing changed.
 */
export async function replacePassword(
  db: Kysely<DB>,
  id: number,
  previousHash: string,
  newHash: string,
): Promise<number | null> {
  const row = await db
    .updateTable('users')
    .set({ password_hash: newHash, token_version: sql`token_version + 1` })
    .where('id', '=', id)
    .where('password_hash', '=', previousHash)
    .returning('token_version')
    .executeTakeFirst();
  return row ? Number(row.token_version) : null;
}

/** Raises the token version, ending every session; the new version, or null for no such user. */
export async function raiseTokenVersion(db: Kysely<DB>, id: number): Promise<number | null> {
  const row = await db
    .updateTable('users')
    .set({ token_version: sql`token_version + 1` })
    .where('id', '=', id)
    .returning('token_version')
    .executeTakeFirst();
  return row ? Number(row.token_version) : null;
}

/** The user's current token version and role, or null when there is no such user (any more). */
export async function sessionStateOf(
  db: Kysely<DB>,
  id: number,
): Promise<{ tokenVersion: number; role: Role } | null> {
  const row = await db
    .selectFrom('users')
    .select(['token_version', isModerator.as('moderator')])
    .where('id', '=', id)
    .executeTakeFirst();
  return row
    ? { tokenVersion: Number(row.token_version), role: row.moderator ? 'moderator' : 'member' }
    : null;
}

/** Which of the given username and email another account already uses (case-insensitive). */
export async function takenFields(
  db: Kysely<DB>,
  username: string,
  email: string,
): Promise<{ username: boolean; email: boolean }> {
  const { rows } = await sql<{ username: boolean; email: boolean }>`
    select
      exists (select 1 from users where lower(username) = lower(${username})) as username,
      exists (select 1 from users where lower(email) = lower(${email})) as email`.execute(db);
  return { username: Boolean(rows[0]?.username), email: Boolean(rows[0]?.email) };
}

export async function insertUser(db: Kysely<DB>, user: OwnUser & { passwordHash: string }): Promise<void> {
  await db
    .insertInto('users')
    .values({ id: user.id, username: user.username, email: user.email, password_hash: user.passwordHash })
    .execute();
}

/** Names the field a unique-index violation on users is about, or null for any other error. */
export function duplicateFieldOf(error: unknown): 'username' | 'email' | null {
  const e = error as { code?: string; constraint?: string; cause?: unknown } | null;
  if (!e || typeof e !== 'object') return null;
  if (e.code === '23505') {
    if (e.constraint === 'users_username_key') return 'username';
    if (e.constraint === 'users_email_key') return 'email';
  }
  return e.cause ? duplicateFieldOf(e.cause) : null;
}
