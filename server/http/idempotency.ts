// Idempotency-Key support for writes: the first response for (user, key) is stored in the same
// transaction as the write, and a retry with the same key and body gets it back unchanged.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DB } from '../db/schema.ts';
import { Conflict, Invalid, Unauthorized } from '../errors.ts';
import { ACCOUNT_GONE, accountWriteLock, heldAccount, wrappedKeyOf } from '../events/personal.ts';
import {
  passWriterGate,
  preamblePending,
  setGatePreamble,
  writeTransaction,
  type GatePreamble,
  type WriteTx,
} from '../events/store.ts';

export type CommandResult = { status: number; body: unknown };

function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url.split('?')[0]}\n${JSON.stringify(request.body ?? null)}`)
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
 * A signed-in write's hold on its author's account, taken with the writer gate in one statement
 * (see setGatePreamble): the account's lock (accountWriteLock, shared), then a check that the
 * account still exists. An account deletion holds that lock exclusively from
 * its start to its commit, so a write either finishes before the deletion goes on (and what it
 * wrote goes with the account) or gets the lock after the deletion committed and is refused here:
 * 401, nothing written. Without this, a save, a new cat or a recorded key that raced a deletion
 * could land after it, naming a person who no longer exists. The check is account_present, a
 * volatile function, whose query takes its snapshot after the lock (the statement's own snapshot
 * was taken before it, and would miss a deletion the lock waited for). It locks no row: a
 * transaction's first row lock gives it its transaction id, which orders it in the log, and that
 * must wait for the target's lock (see lockTarget). The statement also reads the person's wrapped
 * data key: a deletion it waited for has been refused by then, and a key another write of theirs
 * made meanwhile is found when this one's own attempt to make it conflicts (see keyForSealing).
 */
function accountHold(userId: number): GatePreamble {
  return {
    locks: [accountWriteLock(userId, 'shared')],
    check: sql<boolean>`account_present(${userId})`,
    refused: () => new Unauthorized(ACCOUNT_GONE),
    // The person's data key, for a command that seals their text: no statement of its own.
    read: wrappedKeyOf(userId),
    passed: (tx, wrappedKey) => {
      tx.heldAccount = heldAccount(userId, wrappedKey);
    },
  };
}

async function holdAccount(tx: WriteTx, userId: number): Promise<void> {
  setGatePreamble(tx, accountHold(userId));
  await passWriterGate(tx);
}

export type CommandOptions = {
  /**
   * The command's first statement is a passWriterGate call with locks of its own: the account
   * hold joins that statement (see setGatePreamble), a round trip less. A command that never
   * passes the gate is a bug, and fails.
   */
  locksFirst?: boolean;
};

/**
 * Runs a write in one transaction, through the writer gate (see writeTransaction). A signed-in
 * caller's write first holds their account (accountHold), so it is ordered against the account's
 * deletion; commands take their own locks after it (in the same statement with `locksFirst`).
 * With an Idempotency-Key header (signed-in callers), a repeat of the same request returns the
 * stored first result and changes nothing; the same key with a different request is a 409.
 */
export async function runCommand(
  db: Kysely<DB>,
  request: FastifyRequest,
  reply: FastifyReply,
  command: (tx: WriteTx) => Promise<CommandResult>,
  options: CommandOptions = {},
): Promise<FastifyReply> {
  const key = request.headers['idempotency-key'];
  const userId = request.currentUser?.id;
  if (userId === undefined) {
    const result = await writeTransaction(db, command);
    return reply.status(result.status).send(result.body);
  }
  if (typeof key !== 'string') {
    const held = async (tx: WriteTx) => {
      if (!options.locksFirst) {
        await holdAccount(tx, userId);
        return command(tx);
      }
      setGatePreamble(tx, accountHold(userId));
      const result = await command(tx);
      if (preamblePending(tx)) throw new Error('A locksFirst command did not pass the writer gate');
      return result;
    };
    const result = await writeTransaction(db, held, { gateFirst: true });
    return reply.status(result.status).send(result.body);
  }
  if (key.length === 0 || key.length > 200)
    throw new Invalid('Idempotency-Key must be 1 to 200 characters', {
      'Idempotency-Key': 'must be 1 to 200 characters',
    });
  pruneExpired(db, request.log);
  const hash = requestHash(request);
  const keyed = async (tx: WriteTx) => {
    const { trx } = tx;
    // The caller's account before the key's row lock: an account deletion takes it first and
    // then deletes the person's keys.
    await holdAccount(tx, userId);
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
    const fresh = await command(tx);
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
  const result = await writeTransaction(db, keyed, { gateFirst: true });
  if (result.replayed) reply.header('idempotent-replayed', 'true');
  return reply.status(result.status).send(result.body);
}

/** A deleted account's stored first answers, which can hold what it wrote (a review's comment). */
export async function forgetIdempotentAnswers(trx: Kysely<DB>, userId: number): Promise<void> {
  await trx.deleteFrom('idempotency_keys').where('user_id', '=', userId).execute();
}
