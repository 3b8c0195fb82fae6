// Read tables: projections of the event log (disposable, rebuilt by replay), plus the two tables
// that are deliberately not event-sourced: users (credentials) and recently_viewed.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table users (
      id bigint primary key,
      username text not null,
      email text not null,
      password_hash text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index users_username_key on users (lower(username))`.execute(db);
  await sql`create unique index users_email_key on users (lower(email))`.execute(db);

  await sql`
    create table bodegas (
      id bigint primary key,
      name text not null,
      address text not null,
      match_key text not null,
      latitude double precision,
      longitude double precision,
      description text not null default '',
      phone text not null default '',
      hours text not null default '',
      cat_count int not null default 0,
      rating double precision not null default 0,
      review_count int not null default 0,
      is_verified boolean not null default false,
      created_by bigint,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      version int not null
    )`.execute(db);
  await sql`create index bodegas_match_key on bodegas (match_key)`.execute(db);
  await sql`create index bodegas_created_by on bodegas (created_by)`.execute(db);

  await sql`
    create table cats (
      id bigint primary key,
      bodega_id bigint not null,
      bodega_name text not null,
      address text not null,
      latitude double precision,
      longitude double precision,
      name text not null,
      description text not null default '',
      age text not null default '',
      breed text not null default '',
      sex text not null default '',
      personality text not null default '',
      color text not null default '',
      weight text not null default '',
      is_friendly boolean not null default true,
      rating double precision not null default 0,
      review_count int not null default 0,
      created_by bigint,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      version int not null
    )`.execute(db);
  await sql`create index cats_bodega_id on cats (bodega_id)`.execute(db);
  await sql`create index cats_created_by on cats (created_by)`.execute(db);

  await sql`
    create table reviews (
      id bigint primary key,
      target_type text not null check (target_type in ('cat', 'bodega')),
      target_id bigint not null,
      user_id bigint not null,
      rating smallint not null check (rating between 1 and 5),
      comment text not null default '',
      created_at timestamptz not null
    )`.execute(db);
  await sql`create unique index reviews_one_per_user on reviews (target_type, target_id, user_id)`.execute(
    db,
  );
  await sql`create index reviews_target_newest on reviews (target_type, target_id, created_at desc, id desc)`.execute(
    db,
  );

  await sql`
    create table photos (
      id bigint primary key,
      target_type text not null check (target_type in ('cat', 'bodega')),
      target_id bigint not null,
      uploaded_by bigint,
      filename text not null,
      original_path text not null,
      mime_type text not null,
      caption text not null default '',
      status text not null default 'processing' check (status in ('processing', 'ready', 'failed')),
      is_primary boolean not null default false,
      width int,
      height int,
      thumb_width int,
      thumb_height int,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index photos_target on photos (target_type, target_id, created_at, id)`.execute(db);
  await sql`create unique index photos_one_primary on photos (target_type, target_id) where is_primary`.execute(
    db,
  );

  await sql`
    create table saves (
      user_id bigint not null,
      target_type text not null check (target_type in ('cat', 'bodega')),
      target_id bigint not null,
      saved_at timestamptz not null,
      primary key (user_id, target_type, target_id)
    )`.execute(db);
  await sql`create index saves_user_newest on saves (user_id, target_type, saved_at desc)`.execute(db);
  await sql`create index saves_target on saves (target_type, target_id)`.execute(db);

  await sql`
    create table recently_viewed (
      user_id bigint not null,
      target_type text not null check (target_type in ('cat', 'bodega')),
      target_id bigint not null,
      viewed_at timestamptz not null,
      primary key (user_id, target_type, target_id)
    )`.execute(db);
  await sql`create index recently_viewed_user_newest on recently_viewed (user_id, viewed_at desc)`.execute(
    db,
  );
  await sql`create index recently_viewed_target on recently_viewed (target_type, target_id)`.execute(db);

  // Demo projection: a per-type event counter, used to prove replay end to end.
  await sql`create table event_type_counts (type text primary key, count bigint not null)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table event_type_counts, recently_viewed, saves, photos, reviews, cats, bodegas, users`.execute(
    db,
  );
}
