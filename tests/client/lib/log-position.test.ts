import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, LOG_POSITION_MS } from '../../../client/src/lib/api.ts';

type Sent = { method: string; url: string; position: string | null };

/** A server that answers writes with the given log positions in turn, and records what it got. */
function serverAnswering(positions: (string | null)[]) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const headers = (init.headers ?? {}) as Record<string, string>;
      sent.push({ method, url: String(input), position: headers['X-Log-Position'] ?? null });
      const position = method === 'GET' ? null : (positions.shift() ?? null);
      return new Response('{}', {
        status: method === 'POST' ? 201 : 200,
        headers: { 'content-type': 'application/json', ...(position ? { 'X-Log-Position': position } : {}) },
      });
    }),
  );
  return sent;
}

// Each test starts far past the previous one's positions, which then have expired.
let now = Date.UTC(2030, 0, 1);
beforeEach(() => {
  now += 24 * 3600 * 1000;
  vi.useFakeTimers({ now, toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('read-your-writes in the API client', () => {
  it('sends no position before any write', async () => {
    const sent = serverAnswering([]);
    await api.get('/api/search/cats');
    expect(sent[0]!.position).toBeNull();
  });

  it("sends a write's position on reads for 10 seconds, and not on writes", async () => {
    const sent = serverAnswering(['0/3A1B2C8', null]);
    await api.post('/api/cats', { name: 'Mittens' });
    await api.get('/api/search/cats');
    vi.setSystemTime(now + LOG_POSITION_MS - 1);
    await api.get('/api/cats/1');
    await api.put('/api/cats/1', { name: 'Mittens' });
    vi.setSystemTime(now + LOG_POSITION_MS);
    await api.get('/api/cats/1');
    expect(sent.map((s) => [s.method, s.position])).toEqual([
      ['POST', null],
      ['GET', '0/3A1B2C8'],
      ['GET', '0/3A1B2C8'],
      ['PUT', null],
      ['GET', null],
    ]);
  });

  it('keeps the newest position, and a newer write restarts the 10 seconds', async () => {
    const sent = serverAnswering(['1/20', '0/FFFFFFFF', '1/100']);
    await api.post('/api/reviews', {});
    vi.setSystemTime(now + 5000);
    await api.delete('/api/reviews/1'); // an older position (another server's answer) is not kept
    await api.get('/api/reviews/cat/1');
    await api.post('/api/reviews', {});
    vi.setSystemTime(now + 5000 + LOG_POSITION_MS - 1);
    await api.get('/api/reviews/cat/1');
    expect(sent.filter((s) => s.method === 'GET').map((s) => s.position)).toEqual(['1/20', '1/100']);
  });

  it('ignores an answer whose header is not a log position', async () => {
    const sent = serverAnswering(['0/10', 'garbage']);
    await api.post('/api/cats', {});
    await api.post('/api/cats', {});
    await api.get('/api/search/cats');
    expect(sent.at(-1)!.position).toBe('0/10');
  });
});
