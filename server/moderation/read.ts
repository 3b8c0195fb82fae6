// The moderation queue: reported (or decided) targets with their reports counted by reason, the
// content's title and where it is seen. Open items have undecided reports and count those; resolved
// ones have none left open and count all they ever had.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB, TargetType } from '../db/schema.ts';
import { photoUrl } from '../photos/index.ts';
import type { QueueItem, QueueStatus } from '../../contract/moderation.ts';
import type { ModerationTarget } from './target.ts';

type QueueRow = {
  target_type: QueueItem['target_type'];
  target_id: string | number;
  title: string | null;
  parent_type: string | null;
  parent_id: string | number | null;
  photo_file: string | null;
  hidden: boolean;
  reports: number;
  reasons: Record<string, number> | null;
  first_reported_at: Date | string | null;
  last_reported_at: Date | string | null;
};

/** Title, page and (for a ready photo) file of the content itself: null when it no longer exists. */
const CONTENT = sql`
  left join lateral (
    select c.name as title, 'bodega' as parent_type, c.bodega_id as parent_id, null as photo_file
    from cats c where m.target_type = 'cat' and c.id = m.target_id
    union all
    select b.name, null, null, null from bodegas b where m.target_type = 'bodega' and b.id = m.target_id
    union all
    select coalesce(nullif(r.comment, ''), r.rating || ' out of 5, no text'), r.target_type, r.target_id,
      null
    from reviews r where m.target_type = 'review' and r.id = m.target_id
    union all
    select coalesce(nullif(p.caption, ''), p.filename), p.target_type, p.target_id,
      case when p.status = 'ready' then p.filename end
    from photos p where m.target_type = 'photo' and p.id = m.target_id
  ) content on true`;

/** The target's reports that count: the open ones, or all of them when none is open. */
function counted(openOnly: RawBuilder<boolean>) {
  return sql`
    left join lateral (
      select count(*)::int as reports, min(r.created_at) as first_reported_at,
        max(r.created_at) as last_reported_at
      from reports r
      where r.target_type = m.target_type and r.target_id = m.target_id and (r.open or not ${openOnly})
    ) n on true
    left join lateral (
      select jsonb_object_agg(reason, k) as reasons from (
        select r.reason, count(*)::int as k from reports r
        where r.target_type = m.target_type and r.target_id = m.target_id and (r.open or not ${openOnly})
        group by r.reason
      ) g
    ) g on true`;
}

const hasOpen = sql<boolean>`exists (
  select 1 from reports o where o.target_type = m.target_type and o.target_id = m.target_id and o.open)`;

function pageOf(parentType: string | null, parentId: number | null, target: ModerationTarget): string {
  if (target.type === 'cat' || target.type === 'bodega') return `/${target.type}/${target.id}`;
  return `/${parentType}/${parentId}`;
}

function toQueueItem(row: QueueRow): QueueItem {
  const target = { type: row.target_type, id: Number(row.target_id) };
  const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
  return {
    target_type: target.type,
    target_id: target.id,
    title: row.title ?? '',
    url: pageOf(row.parent_type, row.parent_id === null ? null : Number(row.parent_id), target),
    thumb_url:
      row.photo_file === null ? null : photoUrl(row.parent_type as TargetType, row.photo_file, 'thumb'),
    hidden: row.hidden,
    reports: Number(row.reports),
    reasons: row.reasons ?? {},
    first_reported_at: iso(row.first_reported_at),
    last_reported_at: iso(row.last_reported_at),
  };
}

function selectItems(where: RawBuilder<boolean>, openOnly: RawBuilder<boolean>) {
  return sql<QueueRow>`
    select m.target_type, m.target_id, m.hidden, content.title, content.parent_type, content.parent_id,
      content.photo_file,
      n.reports, g.reasons, n.first_reported_at, n.last_reported_at
    from moderation_items m
    ${CONTENT}
    ${counted(openOnly)}
    where content.title is not null and ${where}`;
}

/** A page of the queue, most reported first (then most recently reported). */
export async function listQueue(
  db: Kysely<DB>,
  status: QueueStatus,
  page: number,
  perPage: number,
): Promise<{ items: QueueItem[]; total: number }> {
  const open = status === 'open';
  // Resolved: nothing open, and reported or decided at some point.
  const where = open
    ? hasOpen
    : sql<boolean>`not ${hasOpen} and (m.decided_at is not null or exists (
        select 1 from reports a where a.target_type = m.target_type and a.target_id = m.target_id))`;
  const { rows } = await sql<QueueRow & { total: number }>`
    select q.*, count(*) over () as total from (${selectItems(where, sql.lit(open))}) q
    order by q.reports desc, q.last_reported_at desc nulls last, q.target_type, q.target_id
    limit ${perPage} offset ${(page - 1) * perPage}`.execute(db);
  // A page past the end has no row to carry the total.
  const total = rows[0] ? Number(rows[0].total) : page === 1 ? 0 : await countItems(db, where);
  return { items: rows.map(toQueueItem), total };
}

async function countItems(db: Kysely<DB>, where: RawBuilder<boolean>): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from moderation_items m ${CONTENT}
    where content.title is not null and ${where}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** One target as the queue shows it (after a decision), whether or not it was ever reported. */
export async function findQueueItem(db: Kysely<DB>, target: ModerationTarget): Promise<QueueItem | null> {
  const { rows } = await sql<QueueRow>`${selectItems(
    sql<boolean>`m.target_type = ${target.type} and m.target_id = ${target.id}`,
    hasOpen,
  )}`.execute(db);
  return rows[0] ? toQueueItem(rows[0]) : null;
}
