// The event log, stream versions, consumer checkpoints and id sequences.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists cube`.execute(db);
  await sql`create extension if not exists earthdistance`.execute(db);
  await sql`create extension if not exists pg_trgm`.execute(db);

  await sql`
    create table events (
      global_position bigint generated always as identity primary key,
      stream_id text not null,
      stream_version int not null,
      type text not null,
      schema_version smallint not null default 1,
      data jsonb not null,
      metadata jsonb not null default '{}',
      idempotency_key text unique,
      transaction_id xid8 not null default pg_current_xact_id(),
      recorded_at timestamptz not null default now(),
      unique (stream_id, stream_version)
    )`.execute(db);
  // PGlite (32-bit WebAssembly) returns xid8 btree index scans out of order, so it does not get
  // this index; with a single session it reads the log in position order instead (consumer.ts).
  const { rows } = await sql<{ v: string }>`select version() as v`.execute(db);
  if (!rows[0]?.v.includes('PGlite')) {
    await sql`create index events_transaction_position on events (transaction_id, global_position)`.execute(
      db,
    );
  }

  await sql`create table streams (stream_id text primary key, version int not null)`.execute(db);

  await sql`
    create table subscriptions (
      name text primary key,
      last_transaction_id xid8 not null default '0',
      last_position bigint not null default 0,
      updated_at timestamptz not null default now()
    )`.execute(db);

  for (const seq of ['user_ids', 'bodega_ids', 'cat_ids', 'review_ids', 'photo_ids']) {
    await sql`create sequence ${sql.raw(seq)}`.execute(db);
  }

  // Responses of writes made with an Idempotency-Key, so a retry returns the first result.
  await sql`
    create table idempotency_keys (
      user_id bigint not null,
      key text not null,
      request_hash text not null,
      status_code int not null,
      body jsonb not null,
      created_at timestamptz not null default now(),
      primary key (user_id, key)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table idempotency_keys, subscriptions, streams, events`.execute(db);
  for (const seq of ['user_ids', 'bodega_ids', 'cat_ids', 'review_ids', 'photo_ids']) {
    await sql`drop sequence ${sql.raw(seq)}`.execute(db);
  }
}
