// Review append end to end: POST /api/reviews at 32 connections through the real app (auth,
// validation, decider, append, inline projections) against the same transaction's SQL run
// directly by 32 database clients, in the same run: the transaction as it was first measured (its
// statements one by one, NOTIFY inside it), and the statements the app sends today. The app is
// measured twice: alone, as the baseline's transactions are (the ratings worker starts after, and
// must bring every cat's rating to its reviews' average), then with the worker beside it in the
// same process, recomputing ratings while the reviews arrive, as embedded mode runs.
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { sql } from 'kysely';
import { buildApp } from '../../server/app.ts';
import type { Services } from '../../server/services.ts';
import { streamIds } from '../../server/events/types.ts';
import { startWorker, type RunningWorker } from '../../workers/worker.ts';
import { benchServices, createBenchDatabase, httpLoad, row, sqlLoad } from '../lib.ts';
import type { Scenario } from '../types.ts';

const USERS = 500;
const CATS = 2000;
const CONNECTIONS = 32;

export const scenario: Scenario = {
  name: 'reviews',
  async run({ quick }) {
    const seconds = quick ? 5 : 15;
    const bench = await createBenchDatabase('reviews');
    const services = await benchServices(bench.database, { databaseUrl: bench.url });
    let worker: RunningWorker | undefined;
    const app = await buildApp(services, { serveClient: false });
    try {
      const { db } = bench.database;
      await db
        .insertInto('users')
        .values(
          Array.from({ length: USERS }, (_, i) => ({
            id: i + 1,
            username: `user${i + 1}`,
            email: `user${i + 1}@example.test`,
            password_hash: 'x',
          })),
        )
        .execute();
      await db.transaction().execute(async (trx) => {
        await services.store.append(trx, streamIds.bodega(1), 0, [
          {
            type: 'BodegaAdded',
            data: {
              bodega_id: 1,
              name: 'Bench Deli',
              address: '1 Bench St',
              latitude: 40.75,
              longitude: -73.98,
              description: '',
              phone: '',
              hours: '',
              created_by: null,
            },
          },
        ]);
        for (let c = 1; c <= CATS; c++) {
          await services.store.append(trx, streamIds.cat(c), 0, [
            {
              type: 'CatAdded',
              data: {
                cat_id: c,
                bodega_id: 1,
                created_by: null,
                name: `Cat ${c}`,
                description: '',
                age: '',
                breed: '',
                sex: '',
                personality: '',
                color: '',
                weight: '',
                is_friendly: true,
              },
            },
          ]);
        }
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const tokens = Array.from({ length: USERS }, (_, i) =>
        app.issueToken({ id: i + 1, username: `user${i + 1}` }),
      );

      // Request n reviews cat (n / USERS) as user (n % USERS): every pair is new.
      const pairs = 60_000;
      const bodies = Array.from({ length: pairs }, (_, n) =>
        JSON.stringify({
          cat_id: 1 + (Math.floor(n / USERS) % CATS),
          rating: 1 + (n % 5),
          comment: 'Friendly and fluffy',
        }),
      );
      const headerSets = Array.from({ length: pairs }, (_, n) => ({
        authorization: `Bearer ${tokens[n % USERS]}`,
        'content-type': 'application/json',
      }));
      const api = await httpLoad({
        baseUrl,
        paths: ['/api/reviews'],
        method: 'POST',
        connections: CONNECTIONS,
        seconds,
        bodies,
        headerSets,
      });
      const caughtUp = Date.now();
      worker = await startWorker(services);
      await ratingsCaughtUp(services, worker);
      const catchUpSeconds = (Date.now() - caughtUp) / 1000;
      const withWorkerFrom = api.requests + 1000;
      const withWorker = await httpLoad({
        baseUrl,
        paths: ['/api/reviews'],
        method: 'POST',
        connections: CONNECTIONS,
        seconds,
        bodies: bodies.slice(withWorkerFrom),
        headerSets: headerSets.slice(withWorkerFrom),
      });
      await ratingsCaughtUp(services, worker);

      // The same transaction's statements, with pairs the API runs did not use.
      const offset = withWorkerFrom + withWorker.requests + 1000;
      const direct = await sqlLoad({
        url: bench.url,
        connections: CONNECTIONS,
        seconds,
        async run(client, i) {
          const n = offset + i;
          const user = 1 + ((n * 7) % USERS);
          const cat = 1 + (Math.floor(n / USERS) % CATS);
          await client.query('begin');
          try {
            await client.query('select id from cats where id = $1 for key share', [cat]);
            await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
              `review-cat-${cat}-${user}`,
            ]);
            const dup = await client.query(
              "select id from reviews where target_type = 'cat' and target_id = $1 and user_id = $2",
              [cat, user],
            );
            if (dup.rowCount) {
              await client.query('rollback');
              return;
            }
            const { rows } = await client.query("select nextval('review_ids')::bigint as id");
            const id = Number(rows[0].id);
            await client.query(
              'insert into streams (stream_id, version) values ($1, 1) on conflict do nothing returning version',
              [`review-${id}`],
            );
            const data = {
              review_id: id,
              target_type: 'cat',
              target_id: cat,
              user_id: user,
              rating: 4,
              comment: 'Friendly and fluffy',
            };
            const ev = await client.query(
              "insert into events (stream_id, stream_version, type, schema_version, data, metadata) values ($1, 1, 'ReviewPosted', 1, $2, $3) returning global_position, transaction_id, recorded_at",
              [`review-${id}`, JSON.stringify(data), JSON.stringify({ actor_id: user })],
            );
            await client.query(
              "insert into reviews (id, target_type, target_id, user_id, rating, comment, created_at) values ($1, 'cat', $2, $3, 4, $4, $5)",
              [id, cat, user, data.comment, ev.rows[0].recorded_at],
            );
            await client.query("select pg_notify('events', $1)", [String(ev.rows[0].global_position)]);
            await client.query('commit');
          } catch (error) {
            await client.query('rollback');
            throw error;
          }
        },
      });
      // The statements the app sends today, run directly: the writer gate, the author's account
      // lock, both locks on the target, the account's check and its data key in one statement, the checks and
      // the new id in one, the version claim and the event in one, the
      // review row, and a NOTIFY after the commit (at most one in flight, as the app does).
      const offset2 = offset + direct.requests + direct.errors + 1000;
      const notifier = new pg.Client({ connectionString: bench.url });
      await notifier.connect();
      let notifying = false;
      let notifyAgain = false;
      const notifyAfterCommit = (client: pg.Client) => {
        if (notifying) {
          notifyAgain = true;
          return;
        }
        notifying = true;
        void (async () => {
          do {
            notifyAgain = false;
            await client.query("select pg_notify('events', '')").catch(() => {});
          } while (notifyAgain);
          notifying = false;
        })();
      };
      const current = await sqlLoad({
        url: bench.url,
        connections: CONNECTIONS,
        seconds,
        async run(client, i) {
          const n = offset2 + i;
          const user = 1 + ((n * 7) % USERS);
          const cat = 1 + (Math.floor(n / USERS) % CATS);
          await client.query('begin');
          try {
            const { rows: held } = await client.query(
              'select pg_advisory_xact_lock_shared(7031002), pg_advisory_xact_lock_shared(hashtextextended($1, 0)), pg_advisory_xact_lock_shared(hashtextextended($2, 0)), pg_advisory_xact_lock(hashtextextended($3, 0)), account_present($4) as ok, (select k.wrapped_key from user_keys k where k.user_id = $4) as wrapped_key',
              [`account-writes-${user}`, `target-cat-${cat}`, `review-cat-${cat}-${user}`, user],
            );
            if (!held[0]?.ok) throw new Error('bench user missing');
            const { rows } = await client.query(
              `select r.id as existing, case when r.id is null then nextval('review_ids') end as id,
                      (select username from users where id = $2) as username
               from (select id from cats where id = $1 for key share) t
               left join reviews r on r.target_type = 'cat' and r.target_id = t.id and r.user_id = $2`,
              [cat, user],
            );
            if (!rows[0] || rows[0].id === null) {
              await client.query('rollback');
              return;
            }
            const id = Number(rows[0].id);
            const data = {
              review_id: id,
              target_type: 'cat',
              target_id: cat,
              user_id: user,
              rating: 4,
              comment: 'Friendly and fluffy',
            };
            const ev = await client.query(
              `with claimed as (insert into streams (stream_id, version) values ($1, 1) on conflict (stream_id) do nothing returning version)
               insert into events (stream_id, stream_version, type, schema_version, data, metadata)
               select $1, claimed.version, 'ReviewPosted', 1, $2, $3 from claimed
               returning global_position, transaction_id, recorded_at`,
              [`review-${id}`, JSON.stringify(data), JSON.stringify({ actor_id: user })],
            );
            await client.query(
              "insert into reviews (id, target_type, target_id, user_id, rating, comment, created_at) values ($1, 'cat', $2, $3, 4, $4, $5)",
              [id, cat, user, data.comment, ev.rows[0].recorded_at],
            );
            await client.query('commit');
            notifyAfterCommit(notifier);
          } catch (error) {
            await client.query('rollback');
            throw error;
          }
        },
      });
      while (notifying) await new Promise((r) => setTimeout(r, 10));
      await notifier.end();
      return [
        row(
          'reviews',
          'POST /api/reviews throughput (32 conn)',
          'req/s',
          api.rps,
          direct.rps,
          'same transaction as direct SQL, tx/s',
        ),
        row(
          'reviews',
          'POST /api/reviews throughput (32 conn)',
          'req/s',
          api.rps,
          current.rps,
          "the app's current statements as direct SQL, tx/s",
        ),
        row(
          'reviews',
          'POST /api/reviews throughput (32 conn), ratings worker in the same process',
          'req/s',
          withWorker.rps,
          current.rps,
          "the app's current statements as direct SQL, tx/s",
        ),
        row(
          'reviews',
          'POST /api/reviews p95 (32 conn), ratings worker in the same process',
          'ms',
          withWorker.p95,
          current.p95,
          'current statements p95',
        ),
        row(
          'reviews',
          'ratings worker catching up after the api-alone run',
          's',
          Number(catchUpSeconds.toFixed(1)),
          seconds,
          'seconds of reviews it had to rate',
        ),
        row('reviews', 'POST /api/reviews p95 (32 conn)', 'ms', api.p95, direct.p95, 'direct SQL p95'),
        row(
          'reviews',
          'POST /api/reviews p95 (32 conn)',
          'ms',
          api.p95,
          current.p95,
          'current statements p95',
        ),
        row('reviews', 'POST /api/reviews p99 (32 conn)', 'ms', api.p99, direct.p99, 'direct SQL p99'),
        row(
          'reviews',
          'rejected or failed requests',
          'count',
          api.errors + withWorker.errors,
          direct.errors,
          'direct SQL errors',
        ),
      ];
    } finally {
      await app.close();
      await worker?.stop();
      await services.queue.close();
      await bench.drop();
    }
  },
};

/**
 * Waits for the worker to rate every review so far: the dispatcher has read the log, the queue is
 * empty, and every reviewed cat's rating is its reviews' average. Throws after a bounded wait.
 */
async function ratingsCaughtUp(services: Services, worker: RunningWorker): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    await worker.dispatcher.drain(30_000);
    await services.queue.idle();
    const { rows } = await sql<{ stale: string }>`
      select count(*) as stale from (
        select c.id from cats c join reviews r on r.target_type = 'cat' and r.target_id = c.id
        group by c.id, c.rating, c.review_count
        having c.review_count <> count(*) or c.rating <> round(avg(r.rating)::numeric, 2)::float8
      ) s`.execute(services.database.db);
    if (Number(rows[0]?.stale) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the ratings worker did not catch up within 120 s');
}
