// What the catalogue's route modules share: id parsing, the write context of a request, and
// recording a view without ever failing the page that caused it.
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB, TargetType } from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { recordView } from '../lists/recently-viewed.ts';
import type { AuthUser } from '../plugins/auth.ts';
import type { WriteContext } from './commands.ts';

/** Any text: a path segment that is not a whole number names nothing, so it is a 404, not a 400. */
export const ItemParams = Type.Object({ id: Type.String({ maxLength: 200 }) });

export function itemId(raw: string, missing: string): number {
  const id = /^[0-9]{1,15}$/.test(raw) ? Number(raw) : 0;
  if (id <= 0) throw new NotFound(missing);
  return id;
}

export function signedInUser(request: FastifyRequest): AuthUser {
  // requireUser ran as a preHandler; this only narrows the type.
  return request.currentUser!;
}

export function writeContext(request: FastifyRequest, trx: Kysely<DB>): WriteContext {
  return {
    trx,
    store: request.server.services.store,
    metadata: { actor_id: request.currentUser?.id ?? null, request_id: request.id },
  };
}

export async function recordViewQuietly(
  request: FastifyRequest,
  type: TargetType,
  id: number,
): Promise<void> {
  const user = request.currentUser;
  if (!user) return;
  try {
    await recordView(request.server.services.database.db, user.id, type, id);
  } catch (error) {
    request.log.warn({ err: error, type, id }, 'could not record a recently viewed item');
  }
}
