// Helpers for catalogue tests: signed-in callers (a users row and a token) and requests with
// extra headers (If-Match, Idempotency-Key).
import type { InjectOptions } from 'fastify';
import { nextId } from '../../../server/events/store.ts';
import type { TestApp } from '../../helpers/app.ts';
import type { Json } from '../../helpers/json.ts';

export type Caller = { id: number; username: string; token: string };

export async function signUp(t: TestApp, username: string): Promise<Caller> {
  const { db } = t.services.database;
  const id = await nextId(db, 'user_ids');
  await db
    .insertInto('users')
    .values({ id, username, email: `${username}@example.test`, password_hash: 'not-a-usable-hash' })
    .execute();
  return { id, username, token: t.app.issueToken({ id, username }) };
}

export async function send(
  t: TestApp,
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; caller?: Caller; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.caller) headers.authorization = `Bearer ${options.caller.token}`;
  const res = await t.app.inject({
    method,
    url,
    headers,
    payload: options.body === undefined ? undefined : (options.body as InjectOptions['payload']),
  });
  return { status: res.statusCode, body: res.json() as Json, headers: res.headers };
}
