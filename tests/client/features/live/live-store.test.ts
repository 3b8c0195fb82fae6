import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveStreamUrl, useLiveStore } from '../../../../client/src/features/live/store.ts';
import type { LiveMessage } from '../../../../client/src/features/live/types.ts';

/** A stand-in for the browser's WebSocket that the test drives by hand. */
class FakeSocket {
  static opened: FakeSocket[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  close() {
    this.closed = true;
  }
  send(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

const catAdded = (id: number) => ({
  type: 'cat.added',
  cursor: `1-${id}`,
  at: '2026-11-21T00:00:00.000Z',
  data: { id, name: `Cat ${id}`, bodega_id: 1, latitude: 40.7, longitude: -73.9, rating: 0, review_count: 0 },
});

beforeEach(() => {
  FakeSocket.opened = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.useFakeTimers();
});

afterEach(async () => {
  await vi.runOnlyPendingTimersAsync();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  useLiveStore.getState().acknowledgeNewCats();
});

describe('the live store', () => {
  it('connects to the stream when a screen first listens, once for all listeners', () => {
    const stopA = useLiveStore.getState().subscribe(() => {});
    const stopB = useLiveStore.getState().subscribe(() => {});
    expect(FakeSocket.opened).toHaveLength(1);
    expect(FakeSocket.opened[0]!.url).toBe(
      new URL('/api/stream', location.href).toString().replace(/^http/, 'ws'),
    );
    FakeSocket.opened[0]!.onopen?.({});
    expect(useLiveStore.getState().connection).toBe('open');
    stopA();
    stopB();
  });

  it('lets a passive listener (the query cache) follow the stream without keeping it open', () => {
    const received: LiveMessage[] = [];
    const stopCache = useLiveStore.getState().subscribe((m) => received.push(m), { passive: true });
    expect(FakeSocket.opened).toHaveLength(0);
    const stopScreen = useLiveStore.getState().subscribe(() => {});
    const socket = FakeSocket.opened.at(-1)!;
    socket.send(catAdded(9));
    expect(received.map((m) => m.type)).toEqual(['cat.added']);
    stopScreen();
    vi.advanceTimersByTime(5000);
    expect(socket.closed).toBe(true);
    stopCache();
  });

  it('hands every event to listeners and collects new cats for the announcement', () => {
    const received: LiveMessage[] = [];
    const stop = useLiveStore.getState().subscribe((message) => received.push(message));
    const socket = FakeSocket.opened.at(-1)!;
    socket.send({ type: 'hello', cursor: '1-0' });
    socket.send(catAdded(7));
    socket.send({
      type: 'rating.updated',
      cursor: '1-8',
      at: 'x',
      data: { target_type: 'cat', target_id: 7, rating: 4, review_count: 1 },
    });
    expect(received.map((m) => m.type)).toEqual(['cat.added', 'rating.updated']);
    expect(useLiveStore.getState().newCats.map((c) => c.id)).toEqual([7]);
    expect(useLiveStore.getState().cursor).toBe('1-8');
    useLiveStore.getState().acknowledgeNewCats();
    expect(useLiveStore.getState().newCats).toEqual([]);
    stop();
  });

  it('forgets a new cat that is deleted before anyone looked', () => {
    const stop = useLiveStore.getState().subscribe(() => {});
    const socket = FakeSocket.opened.at(-1)!;
    socket.send(catAdded(3));
    socket.send({ type: 'cat.deleted', cursor: '1-4', at: 'x', data: { id: 3, bodega_id: 1 } });
    expect(useLiveStore.getState().newCats).toEqual([]);
    stop();
  });

  it('passes a reset on so screens refetch', () => {
    const received: LiveMessage[] = [];
    const stop = useLiveStore.getState().subscribe((message) => received.push(message));
    FakeSocket.opened.at(-1)!.send({ type: 'reset' });
    expect(received).toEqual([{ type: 'reset' }]);
    stop();
  });

  it('closes the socket a few seconds after the last listener leaves, not in between pages', async () => {
    const stop = useLiveStore.getState().subscribe(() => {});
    const socket = FakeSocket.opened.at(-1)!;
    stop();
    await vi.advanceTimersByTimeAsync(1000);
    const again = useLiveStore.getState().subscribe(() => {});
    await vi.advanceTimersByTimeAsync(10_000);
    expect(socket.closed).toBe(false);
    again();
    await vi.advanceTimersByTimeAsync(5000);
    expect(socket.closed).toBe(true);
    expect(useLiveStore.getState().connection).toBe('idle');
  });

  it('builds the stream address from the API base', () => {
    expect(liveStreamUrl('')).toBe('/api/stream');
    expect(liveStreamUrl('https://api.example.com')).toBe('https://api.example.com/api/stream');
  });
});
