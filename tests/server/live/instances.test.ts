import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { compareCursors, parseCursor } from '../../../server/events/consumer.ts';
import { createTestApp, testConfig, type TestApp } from '../../helpers/app.ts';
import { storageMode } from '../../helpers/storage.ts';
import { connectStream, listenOnLoopback, type StreamClient, type StreamMessage } from './stream-client.ts';
import { publisher } from './publish.ts';

const inLogOrder = (messages: StreamMessage[]) =>
  messages.every(
    (m, i) => i === 0 || compareCursors(parseCursor(messages[i - 1]!.cursor!)!, parseCursor(m.cursor!)!) < 0,
  );

describe('several api processes on one database', () => {
  let first: TestApp;
  let second: TestApp;
  const bases: string[] = [];
  const open: StreamClient[] = [];

  beforeAll(async () => {
    const config = { live: { ...testConfig().live, pollMs: 100 } };
    first = await createTestApp({ worker: false, config });
    second = await createTestApp({ worker: false, sameDatabaseAs: first, config });
    bases.push(await listenOnLoopback(first.app), await listenOnLoopback(second.app));
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await second.close();
    await first.close();
  });

  it('deliver the same stream, in the same log order, to clients of either', async () => {
    const clients = await Promise.all([
      connectStream(bases[0]!),
      connectStream(bases[0]!),
      connectStream(bases[1]!),
      connectStream(bases[1]!),
    ]);
    open.push(...clients);
    // Writers on both instances at once, so transactions interleave.
    const writers = [publisher(first.services), publisher(second.services)];
    const bodegaId = await writers[0]!.bodega('Twin Deli');
    const perWriter = 15;
    await Promise.all(
      writers.flatMap((w, wi) =>
        [0, 1, 2].map(async (lane) => {
          for (let i = 0; i < perWriter / 3; i++) await w.cat(bodegaId, `Cat ${wi}-${lane}-${i}`);
        }),
      ),
    );
    const total = 1 + 2 * perWriter;
    const streams = await Promise.all(clients.map((c) => c.waitForEvents(total)));
    await new Promise((r) => setTimeout(r, 300)); // room for a duplicate to show up, if any would
    const reference = streams[0]!;
    expect(reference).toHaveLength(total);
    for (const stream of streams) expect(stream).toEqual(reference);
    expect(inLogOrder(reference)).toBe(true);
    expect(new Set(reference.map((m) => `${m.type}:${m.data.id}`)).size).toBe(total);
  });

  it.skipIf(storageMode() !== 'postgres')(
    'delivers an event committed after a later-positioned one, in (transaction, position) order',
    async () => {
      const client = await connectStream(bases[1]!);
      open.push(client);
      const a = new pg.Client({ connectionString: first.databaseUrl! });
      const b = new pg.Client({ connectionString: first.databaseUrl! });
      await a.connect();
      await b.connect();
      const insert = `insert into events (stream_id, stream_version, type, data) values ($1, 1, 'RatingRecomputed', $2) returning global_position`;
      const rating = (id: number) =>
        JSON.stringify({ target_type: 'cat', target_id: id, rating: 4, review_count: 1 });
      try {
        await a.query('begin');
        const early = await a.query(insert, ['rating-cat-901', rating(901)]);
        await b.query('begin');
        const late = await b.query(insert, ['rating-cat-902', rating(902)]);
        expect(Number(late.rows[0].global_position)).toBeGreaterThan(Number(early.rows[0].global_position));
        await b.query('commit'); // the later position is committed first
        await b.query(`select pg_notify('events', '')`);
        await new Promise((r) => setTimeout(r, 400)); // several broadcaster polls while A is still open
        expect(client.events()).toEqual([]);
        await a.query('commit');
        const events = await client.waitForEvents(2);
        expect(events.map((m) => m.data.target_id)).toEqual([901, 902]);
        expect(inLogOrder(events)).toBe(true);
      } finally {
        await a.end();
        await b.end();
      }
    },
  );
});
