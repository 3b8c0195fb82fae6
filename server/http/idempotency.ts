// Idempotency-Key support for writes: the first response for (user, key) is stored in the same
// transaction as the write, and a retry with the same key and body gets it back unchanged.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DB } from '../db/schema.ts';
import { Conflict, Invalid } from '../errors.ts';
import { writeTransaction, type Write, type WriteTx } from '../events/store.ts';

export type CommandResult = { status: number; body: unknown };

function requestHash(request: FastifyRequest, fingerprint: unknown): string {
  const same = fingerprint === undefined ? (request.body ?? null) : fingerprint;
  return createHash('sha256')
    .update(`${request.method} ${request.url.split('?')[0]}\n${JSON.stringify(same)}`)
    .digest('hex');
}

/** How long a key's first answer is kept; clients retry within seconds or minutes, not days. */
export const KEY_LIFETIME_HOURS = 24;
const PRUNE_EVERY_MS = 10 * 60_000;
let lastPrune = 0;

/** Deletes expired keys, at most once per PRUNE_EVERY_MS per process, off the request's path. */
function pruneExpired(db: Kysely<DB>, log: FastifyRequest['log']): void {
  if (Date.now() - lastPrune < PRUNE_EVERY_MS) return;
  lastPrune = Date.now();
  void sql`delete from idempotency_keys where created_at < now() - ${KEY_LIFETIME_HOURS} * interval '1 hour'`
    .execute(db)
    .catch((error: unknown) => log.warn({ err: error }, 'could not prune expired idempotency keys'));
}

/**
 * Runs a write in one transaction (see writeTransaction): the writer gate, then the command's
 * declared locks, in one statement; a signed-in caller's write also holds their account in that
 * statement, so it is ordered against the account's deletion (see WriteTx.open). With an
 * Idempotency-Key header (signed-in callers), a repeat of the same request (the same
 * `command.fingerprint`, or body) returns the stored first result and changes nothing; the same
 * key with a different request is a 409.
 */
export async function runCommand(
  db: Kysely<DB>,
  request: FastifyRequest,
  reply: FastifyReply,
  command: Write<CommandResult>,
): Promise<FastifyReply> {
  const key = request.headers['idempotency-key'];
  const userId = request.currentUser?.id;
  const run = (tx: WriteTx) => command.run(tx);
  if (userId === undefined) {
    const result = await writeTransaction(db, run, { locks: command.locks });
    return reply.status(result.status).send(result.body);
  }
  if (typeof key !== 'string') {
    const result = await writeTransaction(db, run, { locks: command.locks, account: userId });
    return reply.status(result.status).send(result.body);
  }
  if (key.length === 0 || key.length > 200)
    throw new Invalid('Idempotency-Key must be 1 to 200 characters', {
      'Idempotency-Key': 'must be 1 to 200 characters',
    });
  pruneExpired(db, request.log);
  const hash = requestHash(request, command.fingerprint);
  // The caller's account (and the command's locks) before the key's row lock: an account deletion
  // takes the account's first and then deletes the person's keys.
  const keyed = async (tx: WriteTx) => {
    const { trx } = tx;
    const seen = await trx
      .selectFrom('idempotency_keys')
      .selectAll()
      .select(sql<boolean>`created_at < now() - ${KEY_LIFETIME_HOURS} * interval '1 hour'`.as('expired'))
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .forUpdate()
      .executeTakeFirst();
    if (seen?.expired) {
      // A key is remembered for a day: after that it is free again, like one never used.
      await trx.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).execute();
    } else if (seen) {
      if (seen.request_hash !== hash)
        throw new Conflict(
          'This Idempotency-Key was already used for a different request',
          'idempotency_key_reused',
        );
      return {
        status: seen.status_code,
        body: typeof seen.body === 'string' ? JSON.parse(seen.body) : seen.body,
        replayed: true,
      };
    }
    const fresh = await command.run(tx);
    const inserted = await trx
      .insertInto('idempotency_keys')
      .values({
        user_id: userId,
        key,
        request_hash: hash,
        status_code: fresh.status,
        body: JSON.stringify(fresh.body ?? null),
      })
      .onConflict((oc) => oc.doNothing())
      .returning('key')
      .executeTakeFirst();
    // A concurrent request with the same key won the race: undo ours and tell the caller.
    if (!inserted)
      throw new Conflict(
        'A request with this Idempotency-Key is already in progress',
        'idempotency_key_in_use',
      );
    return { ...fresh, replayed: false };
  };
  const result = await writeTransaction(db, keyed, { locks: command.locks, account: userId });
  if (result.replayed) reply.header('idempotent-replayed', 'true');
  return reply.status(result.status).send(result.body);
}

/** A deleted account's stored first answers, which can hold what it wrote (a review's comment). */
export async function forgetIdempotentAnswers(trx: Kysely<DB>, userId: number): Promise<void> {
  await trx.deleteFrom('idempotency_keys').where('user_id', '=', userId).execute();
}
