// Replay: events/s of a full rebuild of every projection from a log of 1,000,000 events, against
// COPY of the same rows (the database's own bulk speed) measured in the same run.
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { DB } from '../../server/db/schema.ts';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { projections } from '../../server/domains.ts';
import { useDataKey } from '../../server/events/personal.ts';
import { createEventStore } from '../../server/events/store.ts';
import { replay } from '../../server/events/replay.ts';
import type { NewEvent } from '../../server/events/types.ts';
import { streamIds } from '../../server/events/types.ts';
import { createBenchDatabase, row } from '../lib.ts';
import type { Scenario } from '../types.ts';

const BREEDS = ['Tabby', 'Tuxedo', 'Calico', 'Siamese', 'Maine Coon', 'Domestic Shorthair', 'Orange Tabby'];

/**
 * Appends about `total` events in realistic proportions through the real append path (version
 * checks, sequence, idempotency). Projections are left to the replay being measured, which builds
 * the read tables from this log.
 */
export async function generateLog(database: import('../../server/db/database.ts').Database, total: number) {
  const store = createEventStore([]);
  // Each cat brings 9 events: added, edited twice, four reviews and two recomputed ratings.
  const bodegas = Math.max(10, Math.round(total * 0.02));
  const cats = Math.max(20, Math.ceil((total - bodegas) / 9));
  let appended = 0;
  let reviewId = 0;
  const batch = async (work: (trx: Kysely<DB>) => Promise<void>) => database.db.transaction().execute(work);

  for (let b = 1; b <= bodegas; b += 200) {
    await batch(async (trx) => {
      for (let id = b; id < Math.min(b + 200, bodegas + 1); id++) {
        await store.append(trx, streamIds.bodega(id), 0, [
          {
            type: 'BodegaAdded',
            data: {
              bodega_id: id,
              name: `Deli ${id}`,
              address: `${id} Broadway, New York, NY`,
              latitude: 40.6 + (id % 300) / 1000,
              longitude: -74.0 + (id % 250) / 1000,
              description: 'Corner store with a resident cat',
              phone: '',
              hours: '24/7',
              created_by: null,
            },
          },
        ]);
        appended++;
      }
    });
  }
  const reviewsPerCat = 4;
  for (let c = 1; c <= cats && appended < total; c += 100) {
    await batch(async (trx) => {
      for (let id = c; id < Math.min(c + 100, cats + 1) && appended < total; id++) {
        const fields = {
          name: `Cat ${id}`,
          description: 'Sleeps on the bread shelf',
          age: `${id % 15} years`,
          breed: BREEDS[id % BREEDS.length]!,
          sex: (['Male', 'Female', 'Unknown'] as const)[id % 3]!,
          personality: id % 2 ? 'Friendly' : 'Shy',
          color: 'Orange',
          weight: '10 lbs',
          is_friendly: id % 2 === 1,
        };
        const catEvents: NewEvent[] = [
          {
            type: 'CatAdded',
            data: { cat_id: id, bodega_id: 1 + (id % bodegas), created_by: null, ...fields },
          },
          { type: 'CatUpdated', data: { cat_id: id, ...fields, description: 'Naps by the register' } },
          { type: 'CatUpdated', data: { cat_id: id, ...fields, personality: 'Curious' } },
        ];
        await store.append(trx, streamIds.cat(id), 0, catEvents);
        appended += catEvents.length;
        let sum = 0;
        for (let r = 0; r < reviewsPerCat && appended < total; r++) {
          reviewId++;
          const rating = 1 + ((id + r) % 5);
          sum += rating;
          await store.append(trx, streamIds.review(reviewId), 0, [
            {
              type: 'ReviewPosted',
              data: {
                review_id: reviewId,
                target_type: 'cat',
                target_id: id,
                user_id: r + 1,
                rating,
                comment: 'Lovely cat',
              },
            },
          ]);
          appended++;
          if (r % 2 === 1) {
            await store.append(trx, streamIds.rating('cat', id), 'any', [
              {
                type: 'RatingRecomputed',
                data: {
                  target_type: 'cat',
                  target_id: id,
                  rating: Math.round((sum / (r + 1)) * 100) / 100,
                  review_count: r + 1,
                },
              },
            ]);
            appended++;
          }
        }
      }
    });
  }
  return appended;
}

async function copyRate(url: string): Promise<number> {
  const a = new pg.Client({ connectionString: url });
  const b = new pg.Client({ connectionString: url });
  await a.connect();
  await b.connect();
  try {
    await b.query('drop table if exists events_copy');
    await b.query('create table events_copy (like events including defaults)');
    await b.query('alter table events_copy alter column global_position drop identity if exists');
    const started = performance.now();
    await pipeline(
      a.query(copyTo('copy events to stdout')),
      b.query(copyFrom('copy events_copy from stdin')),
    );
    const seconds = (performance.now() - started) / 1000;
    const { rows } = await b.query('select count(*)::int as n from events_copy');
    await b.query('drop table events_copy');
    return rows[0].n / seconds;
  } finally {
    await a.end();
    await b.end();
  }
}

export const scenario: Scenario = {
  name: 'replay',
  async run({ quick }) {
    const total = quick ? 100_000 : 1_000_000;
    // Review comments are sealed under their authors' keys, wrapped by DATA_KEY: a key of this
    // run's own, as the bench database lives only for the run.
    useDataKey(randomBytes(32));
    const bench = await createBenchDatabase('replay');
    try {
      const t0 = performance.now();
      const appended = await generateLog(bench.database, total);
      const genSeconds = (performance.now() - t0) / 1000;
      console.log(`   generated ${appended} events through the append path in ${genSeconds.toFixed(0)} s`);
      const baseline = await copyRate(bench.url);
      const result = await replay(bench.database, projections);
      const rate = result.events / result.seconds;
      const verify = await replay(bench.database, projections, { verify: true });
      const clean = verify.differences.every((d) => d.same);
      return [
        row(
          'replay',
          `full rebuild of ${result.events.toLocaleString('en-US')} events`,
          'ev/s',
          rate,
          baseline,
          'COPY of the same rows, rows/s',
          {
            text: 'verify clean after rebuild',
            pass: clean,
          },
        ),
        row('replay', 'writers held during the swap', 'ms', result.lockMs, 0, 'no lock', undefined),
        row('replay', 'append path while generating', 'ev/s', appended / genSeconds, baseline, 'COPY rows/s'),
      ];
    } finally {
      await bench.drop();
    }
  },
};
