// What a resume (`?after=`) costs and who may make one: it is served from the events the
// broadcaster keeps rather than read from the log again, one client address may make only so many,
// and a cursor outside the log's range is refused before the upgrade instead of failing in SQL.
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { formatCursor, headCursor } from '../../../server/events/consumer.ts';
import { createResumeLimit } from '../../../server/live/resume-limit.ts';
import { createTestApp, testConfig, type TestApp } from '../../helpers/app.ts';
import { connectStream, listenOnLoopback, type StreamClient } from './stream-client.ts';
import { publisher } from './publish.ts';

/** The answer to an upgrade that is refused; fails if the socket opens. */
function refusal(
  base: string,
  query: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: unknown }> {
  const socket = new WebSocket(`${base}/api/stream${query}`);
  return new Promise((resolve, reject) => {
    socket.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(body) }),
      );
    });
    socket.on('open', () => {
      socket.close();
      reject(new Error('upgraded'));
    });
  });
}

const live = (overrides: Partial<TestApp['services']['config']['live']>) => ({
  live: { ...testConfig().live, ...overrides },
});

describe('a resume', () => {
  let t: TestApp;
  let later: TestApp | null = null;
  const open: StreamClient[] = [];
  beforeAll(async () => {
    t = await createTestApp({ worker: false });
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await later?.close();
    await t.close();
  });

  it('is served from the events the broadcaster keeps, with no read of the log, also by a process started later', async () => {
    const base = await listenOnLoopback(t.app);
    const publish = publisher(t.services);
    const follower = await connectStream(base);
    open.push(follower);
    const bodegaId = await publish.bodega('Kept Deli');
    await follower.waitForEvents(1);
    const from = await publish.visible();
    const cats = [await publish.cat(bodegaId, 'Kept 1'), await publish.cat(bodegaId, 'Kept 2')];
    await follower.waitForEvents(3);
    // A second api process starts now: it keeps the recent events from its start.
    later = await createTestApp({ worker: false, sameDatabaseAs: t });
    const laterBase = await listenOnLoopback(later.app);

    // The cats' events leave the log: a resume that read the log for them would find nothing.
    const { numDeletedRows } = await t.services.database.db
      .deleteFrom('events')
      .where(
        'stream_id',
        'in',
        cats.map((id) => `cat-${id}`),
      )
      .executeTakeFirst();
    expect(Number(numDeletedRows)).toBe(2);

    for (const at of [base, laterBase]) {
      const client = await connectStream(at, `?after=${formatCursor(from!)}`);
      open.push(client);
      const events = await client.waitForEvents(2, 10_000);
      expect(events.map((m) => [m.type, m.data.id, m.data.bodega_name])).toEqual([
        ['cat.added', cats[0], 'Kept Deli'],
        ['cat.added', cats[1], 'Kept Deli'],
      ]);
      expect(client.messages.some((m) => m.type === 'reset')).toBe(false);
    }
  });
});

describe('resumes from one address', () => {
  let t: TestApp;
  let base: string;
  const open: StreamClient[] = [];
  beforeAll(async () => {
    t = await createTestApp({ worker: false, config: live({ resumeBurst: 3, resumesPerMinute: 1 }) });
    base = await listenOnLoopback(t.app);
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await t.close();
  });

  it('beyond its bucket are refused with 429 before the upgrade; connections without a cursor still open', async () => {
    await publisher(t.services).bodega('Busy Deli');
    const after = formatCursor(await headCursor(t.services.database.db));
    for (let i = 0; i < 3; i++) {
      const client = await connectStream(base, `?after=${after}`);
      open.push(client);
      expect(client.messages[0]).toMatchObject({ type: 'hello' });
    }
    const refused = await refusal(base, `?after=${after}`);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: expect.stringContaining('Too many resumes'),
      code: 'rate_limited',
      details: { retry_after: expect.any(Number) },
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Reset-from-zero is a resume like any other.
    expect((await refusal(base, '?after=0-0')).status).toBe(429);
    const fresh = await connectStream(base);
    open.push(fresh);
    expect(fresh.messages[0]).toMatchObject({ type: 'hello' });
  });
});

describe('a cursor', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    base = await listenOnLoopback(t.app);
    await publisher(t.services).bodega('Cursor Deli');
  });
  afterAll(async () => t.close());

  it('out of the range of the log is refused with 400 before the upgrade, never closed with 1011', async () => {
    for (const after of ['1-99999999999999999999', '1-9007199254740992', '18446744073709551616-1']) {
      const refused = await refusal(base, `?after=${after}`);
      expect(refused.status, after).toBe(400);
      expect(refused.body).toMatchObject({ code: 'invalid_input', details: { after: expect.any(String) } });
    }
  });

  it('at the edge of the range parses and, never given out, gets reset', async () => {
    const client = await connectStream(base, '?after=18446744073709551615-9007199254740991');
    await client.waitFor((m) => m.some((x) => x.type === 'reset'));
    expect(client.messages[1]).toEqual({
      type: 'reset',
      cursor: formatCursor(await headCursor(t.services.database.db)),
    });
    await client.close();
  });

  it('with leading zeros is the same cursor', async () => {
    const head = await headCursor(t.services.database.db);
    const client = await connectStream(base, `?after=000${head.transactionId}-00${head.position}`);
    await new Promise((r) => setTimeout(r, 200));
    expect(client.messages.map((m) => m.type)).toEqual(['hello']);
    await client.close();
  });
});

describe('the resume bucket', () => {
  it('allows the burst at once, then one per refill interval, and forgets an address once full again', () => {
    const limit = createResumeLimit({ burst: 2, perMinute: 30 });
    expect([limit.take('a', 0), limit.take('a', 0), limit.take('a', 0)]).toEqual([0, 0, 2]);
    expect(limit.take('b', 0)).toBe(0); // another address has its own
    expect(limit.take('a', 1000)).toBe(1);
    expect(limit.take('a', 2000)).toBe(0);
    expect(limit.take('a', 2000)).toBe(2);
    limit.prune(6000);
    expect([limit.take('a', 6000), limit.take('a', 6000), limit.take('a', 6000)]).toEqual([0, 0, 2]);
  });
});
