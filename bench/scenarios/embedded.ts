// The cost of running embedded storage in its own thread (server/db/pglite-host.ts): microseconds
// per statement through Kysely on the supervised storage thread, against the same statement through
// Kysely on a PGlite instance on the main thread, as before the move. Rounds alternate between the
// two so machine load falls on both alike; the median round counts.
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { openDatabase } from '../../server/db/database.ts';
import { PGliteDialect } from '../../server/db/pglite-dialect.ts';
import { row } from '../lib.ts';
import type { BenchRow, Scenario } from '../types.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function microsPerCall(count: number, run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) await run();
  return ((performance.now() - started) * 1000) / count;
}

/** The one table this scenario makes. */
type BenchTables = { bench_items: { id: number; name: string } };

export const scenario: Scenario = {
  name: 'embedded',
  async run({ quick }): Promise<BenchRow[]> {
    const calls = quick ? 500 : 3000;
    const rounds = quick ? 3 : 7;
    const inThread = await PGlite.create();
    const direct = new Kysely<BenchTables>({ dialect: new PGliteDialect(() => inThread) });
    const threaded = await openDatabase({ url: null });
    const worker = threaded.db as unknown as Kysely<BenchTables>;
    try {
      for (const db of [direct, worker]) {
        await sql`create table bench_items (id int primary key, name text not null)`.execute(db);
        await sql`insert into bench_items select g, 'item ' || g from generate_series(1, 1000) g`.execute(db);
      }
      const statements: Record<string, (db: Kysely<BenchTables>, i: number) => Promise<unknown>> = {
        'select 1': (db) => sql`select 1`.execute(db),
        'primary-key lookup': (db, i) =>
          db
            .selectFrom('bench_items')
            .selectAll()
            .where('id', '=', (i % 1000) + 1)
            .execute(),
      };
      const rows: BenchRow[] = [];
      for (const [name, statement] of Object.entries(statements)) {
        const threadedRounds: number[] = [];
        const directRounds: number[] = [];
        let i = 0;
        await microsPerCall(200, () => statement(worker, i++));
        await microsPerCall(200, () => statement(direct, i++));
        for (let round = 0; round < rounds; round++) {
          threadedRounds.push(await microsPerCall(calls, () => statement(worker, i++)));
          directRounds.push(await microsPerCall(calls, () => statement(direct, i++)));
        }
        rows.push(
          row(
            'embedded',
            `${name} on the storage thread`,
            'µs',
            median(threadedRounds),
            median(directRounds),
            'PGlite on the main thread',
          ),
        );
      }
      return rows;
    } finally {
      await direct.destroy();
      await inThread.close();
      await threaded.close();
    }
  },
};
