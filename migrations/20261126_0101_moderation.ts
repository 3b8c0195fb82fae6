// Reports and moderation. The moderation projection keeps the reports, each reported or decided
// target's state and the moderators; every other read table that shows content gets a `hidden`
// flag, which its own projection sets from ContentHidden / ContentRestored and every public read
// filters on. A cat is hidden when it is hidden itself or its bodega is (`hidden` is generated
// from the two). The map keeps hidden items out of its cells: a hidden bodega's place and the cats
// hidden one by one (map_hidden_cats) no longer count.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create sequence report_ids`.execute(db);
  await sql`
    create table reports (
      id bigint primary key,
      target_type text not null,
      target_id bigint not null,
      user_id bigint not null,
      reason text not null,
      comment text not null,
      open boolean not null,
      created_at timestamptz not null,
      constraint reports_one_per_user unique (target_type, target_id, user_id)
    )`.execute(db);
  await sql`create index reports_open on reports (target_type, target_id) where open`.execute(db);
  await sql`
    create table moderation_items (
      target_type text not null,
      target_id bigint not null,
      hidden boolean not null,
      hidden_by_reports boolean not null,
      decided_at timestamptz,
      primary key (target_type, target_id)
    )`.execute(db);
  await sql`create table moderators (user_id bigint primary key)`.execute(db);
  await sql`alter table bodegas add column hidden boolean not null default false`.execute(db);
  await sql`
    alter table cats
      add column hidden_self boolean not null default false,
      add column bodega_hidden boolean not null default false,
      add column hidden boolean generated always as (hidden_self or bodega_hidden) stored`.execute(db);
  await sql`alter table reviews add column hidden boolean not null default false`.execute(db);
  await sql`alter table photos add column hidden boolean not null default false`.execute(db);
  await sql`alter table map_places add column hidden boolean not null default false`.execute(db);
  await sql`create table map_hidden_cats (id bigint primary key, bodega_id bigint not null)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table map_hidden_cats`.execute(db);
  await sql`alter table map_places drop column hidden`.execute(db);
  await sql`alter table photos drop column hidden`.execute(db);
  await sql`alter table reviews drop column hidden`.execute(db);
  await sql`alter table cats drop column hidden, drop column bodega_hidden, drop column hidden_self`.execute(
    db,
  );
  await sql`alter table bodegas drop column hidden`.execute(db);
  await sql`drop table moderators, moderation_items, reports`.execute(db);
  await sql`drop sequence report_ids`.execute(db);
}
