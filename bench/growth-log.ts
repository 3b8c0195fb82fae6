// The growth bench's city as an event log, written straight into the events table with COPY: a
// million cats through the append path would take hours (about 1,400 events/s), and what the bench
// measures is the read side at that size. The events are the app's own, of their current schema
// versions: the shops and cats of city-data.ts (NYC neighbourhoods, names, shops with several cats),
// reviews by a few thousand readers with their comments sealed by the app's own sealEventData, and
// after each review the RatingRecomputed the ratings job would record. Stream versions, the streams
// table and the id sequences are kept as appends keep them. No read table is written here: the app's
// replay builds every one of them from this log.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { hashPassword } from '../server/accounts/passwords.ts';
import type { Database } from '../server/db/database.ts';
import { heldAccount, sealEventData } from '../server/events/personal.ts';
import { SCHEMA_VERSIONS, streamIds, type NewEvent } from '../server/events/types.ts';
import { bodegaEvents, catFields, catsPerShop, randomSource } from './city-data.ts';

export type GrowthLogStats = {
  cats: number;
  bodegas: number;
  reviews: number;
  readers: number;
  events: number;
  seconds: number;
};

/** Shops per COPY: each COPY is a transaction of its own, as the log's appends are. */
const SHOPS_PER_COPY = 2000;
/** Share of cats and of shops that have reviews, and at most how many each. */
const REVIEWED_SHARE = 0.3;
const MAX_REVIEWS = 3;
const LOG_SPAN_MS = 2 * 365 * 24 * 3600 * 1000;

const COMMENTS = [
  'Sweetest cat on the block, let me scratch her ears while I paid.',
  'Was asleep on the bread, as promised. Would visit again.',
  'Hissed at me, then followed me to the register. Complicated.',
  'Chonky and proud. Guards the chips like a pro.',
  'Friendly, but only if you bring treats.',
  'Did not see the cat this time, the guy at the counter says he was out.',
  'Best bodega cat in the neighbourhood, no contest.',
  'Shy at first, then sat on my feet for ten minutes.',
];

type Random = ReturnType<typeof randomSource>;
type LoggedEvent = { stream: string; version: number; event: NewEvent; metadata?: object };

/** `count` distinct readers drawn from 1..readers. */
function distinctReaders(rnd: Random, readers: number, count: number): number[] {
  const picked = new Set<number>();
  while (picked.size < count) picked.add(1 + Math.floor(rnd.next() * readers));
  return [...picked];
}

/** A row of COPY's text format: backslashes doubled (JSON.stringify escapes every control char). */
function copyLine(e: LoggedEvent, at: Date, data: object): string {
  const json = (value: object) => JSON.stringify(value).replace(/\\/g, '\\\\');
  return `${e.stream}\t${e.version}\t${e.event.type}\t${SCHEMA_VERSIONS[e.event.type]}\t${json(data)}\t${json(e.metadata ?? {})}\t${at.toISOString()}\n`;
}

/**
 * Readers' accounts (rows in users, as sign-up writes them) and their data keys, made by the app's
 * own sealing on a first comment of each; answers each reader's wrapped key, with which their
 * reviews are then sealed without a statement (as under the account hold of a write).
 */
async function makeReaders(database: Database, readers: number): Promise<Map<number, Buffer>> {
  const hash = await hashPassword('growth-bench-reader');
  await sql`
    insert into users (id, username, email, password_hash)
    select g, 'reader' || g, 'reader' || g || '@example.com', ${hash}
    from generate_series(1, ${readers}) g`.execute(database.db);
  await sql`select setval('user_ids', ${readers})`.execute(database.db);
  const first: NewEvent[] = Array.from({ length: readers }, (_, i) => ({
    type: 'ReviewPosted',
    data: { review_id: 0, target_type: 'cat', target_id: 0, user_id: i + 1, rating: 5, comment: '' },
  }));
  await sealEventData(database.db, first, null);
  const { rows } = await sql<{ user_id: string; wrapped_key: Buffer }>`
    select user_id, wrapped_key from user_keys`.execute(database.db);
  return new Map(rows.map((r) => [Number(r.user_id), Buffer.from(r.wrapped_key)]));
}

/**
 * Writes the log of a city of `cats` cats in `cats / 5` shops into an empty, migrated database, and
 * answers what it wrote. Seeded: the same size always gives the same city.
 */
export async function copyGrowthLog(
  database: Database,
  url: string,
  cats: number,
  onProgress?: (done: { cats: number; events: number }) => void,
): Promise<GrowthLogStats> {
  const started = performance.now();
  const rnd = randomSource(20261206 + cats);
  const bodegas = Math.max(1, Math.round(cats / 5));
  const readers = Math.max(50, Math.round(cats / 100));
  const keys = await makeReaders(database, readers);
  const perShop = catsPerShop(rnd, bodegas, cats);
  const clockStart = Date.now() - LOG_SPAN_MS;
  const step = LOG_SPAN_MS / (cats * 4);
  let written = 0;
  let nextCat = 1;
  let nextReview = 1;
  let reviews = 0;

  // A target's reviews, each followed by the rating the ratings job records for it.
  const reviewed = (type: 'cat' | 'bodega', id: number): LoggedEvent[] => {
    if (rnd.next() >= REVIEWED_SHARE) return [];
    const out: LoggedEvent[] = [];
    let sum = 0;
    const authors = distinctReaders(rnd, readers, 1 + Math.floor(rnd.next() * MAX_REVIEWS));
    authors.forEach((userId, i) => {
      const rating = 1 + Math.floor(Math.pow(rnd.next(), 0.6) * 5);
      sum += rating;
      const reviewId = nextReview++;
      out.push({
        stream: streamIds.review(reviewId),
        version: 1,
        metadata: { actor_id: userId },
        event: {
          type: 'ReviewPosted',
          data: {
            review_id: reviewId,
            target_type: type,
            target_id: id,
            user_id: userId,
            rating,
            comment: rnd.pick(COMMENTS),
          },
        },
      });
      out.push({
        stream: streamIds.rating(type, id),
        version: i + 1,
        event: {
          type: 'RatingRecomputed',
          data: {
            target_type: type,
            target_id: id,
            rating: Math.round((sum / (i + 1)) * 100) / 100,
            review_count: i + 1,
          },
        },
      });
    });
    reviews += authors.length;
    return out;
  };

  const shopEvents = (bodegaId: number): LoggedEvent[] => {
    const out: LoggedEvent[] = bodegaEvents(rnd, bodegaId).map((event, i) => ({
      stream: streamIds.bodega(bodegaId),
      version: i + 1,
      event,
    }));
    for (let c = 0; c < perShop[bodegaId - 1]!; c++) {
      const catId = nextCat++;
      out.push({
        stream: streamIds.cat(catId),
        version: 1,
        event: {
          type: 'CatAdded',
          data: { cat_id: catId, bodega_id: bodegaId, created_by: null, ...catFields(rnd) },
        },
      });
      out.push(...reviewed('cat', catId));
    }
    out.push(...reviewed('bodega', bodegaId));
    return out;
  };

  // Sealed as an append under the author's account hold seals it: with the key the hold read.
  const sealed = async (e: LoggedEvent): Promise<object> => {
    if (e.event.type !== 'ReviewPosted') return e.event.data;
    const userId = e.event.data.user_id;
    const [data] = await sealEventData(database.db, [e.event], heldAccount(userId, keys.get(userId)!));
    return data!;
  };

  // The map's trigger would apply each COPY's events to the map tables at its commit: off, so that
  // replay builds those too, from nothing, like every other read table.
  await sql`alter table events disable trigger map_at_commit`.execute(database.db);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let first = 1; first <= bodegas; first += SHOPS_PER_COPY) {
      const last = Math.min(bodegas, first + SHOPS_PER_COPY - 1);
      async function* lines() {
        for (let id = first; id <= last; id++) {
          let chunk = '';
          for (const e of shopEvents(id)) {
            chunk += copyLine(e, new Date(clockStart + written * step), await sealed(e));
            written++;
          }
          yield chunk;
        }
      }
      await pipeline(
        Readable.from(lines()),
        client.query(
          copyFrom(
            'copy events (stream_id, stream_version, type, schema_version, data, metadata, recorded_at) from stdin',
          ),
        ),
      );
      onProgress?.({ cats: nextCat - 1, events: written });
    }
  } finally {
    await client.end();
    await sql`alter table events enable trigger map_at_commit`.execute(database.db);
  }
  await sql`
    insert into streams (stream_id, version)
    select stream_id, max(stream_version) from events group by stream_id`.execute(database.db);
  await sql`select setval('bodega_ids', ${bodegas}), setval('cat_ids', ${cats}),
    setval('review_ids', ${Math.max(1, reviews)})`.execute(database.db);
  return {
    cats: nextCat - 1,
    bodegas,
    reviews,
    readers,
    events: written,
    seconds: (performance.now() - started) / 1000,
  };
}
