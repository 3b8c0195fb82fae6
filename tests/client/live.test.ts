import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BACKOFF_CAP_MS,
  backoffDelay,
  createLiveConnection,
  memoryCursorStore,
  type LiveConnectionOptions,
  type LiveConnectionState,
  type LiveMessage,
  type WebSocketLike,
} from '../../client/src/lib/live.ts';

/** Stands in for the browser's WebSocket, the one API these tests cannot drive for real. */
class FakeSocket implements WebSocketLike {
  static all: FakeSocket[] = [];
  onopen: WebSocketLike['onopen'] = null;
  onmessage: WebSocketLike['onmessage'] = null;
  onclose: WebSocketLike['onclose'] = null;
  onerror: WebSocketLike['onerror'] = null;
  closedWith: { code?: number; reason?: string } | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  static last(): FakeSocket {
    const socket = FakeSocket.all.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }
  open() {
    this.onopen?.({});
  }
  send(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop() {
    this.onerror?.({});
    this.onclose?.({ code: 1006 });
  }
  close(code?: number, reason?: string) {
    this.closedWith = { code, reason };
  }
  after(): string | null {
    return new URL(this.url).searchParams.get('after');
  }
}

const event = (cursor: string, id = 1): LiveMessage => ({
  type: 'cat.added',
  cursor,
  at: '2026-11-21T20:48:15.123Z',
  data: { id },
});

function connect(overrides: Partial<LiveConnectionOptions> = {}) {
  const messages: LiveMessage[] = [];
  const states: LiveConnectionState[] = [];
  const resets = vi.fn();
  const connection = createLiveConnection({
    url: 'ws://cats.test/api/stream',
    onMessage: (m) => messages.push(m),
    onStateChange: (s) => states.push(s),
    onReset: resets,
    WebSocket: FakeSocket,
    random: () => 0.5,
    ...overrides,
  });
  return { connection, messages, states, resets };
}

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('backoffDelay', () => {
  it('stays within [0, min(30 s, 500 ms * 2^attempt)) for every attempt', () => {
    for (let attempt = 0; attempt < 40; attempt++) {
      const ceiling = Math.min(BACKOFF_CAP_MS, 500 * 2 ** attempt);
      expect(backoffDelay(attempt, () => 0)).toBe(0);
      expect(backoffDelay(attempt, () => 0.999_999_999)).toBeLessThan(ceiling);
      expect(backoffDelay(attempt, () => 0.999_999_999)).toBeGreaterThanOrEqual(ceiling - 1);
      expect(backoffDelay(attempt, () => 0.5)).toBe(Math.floor(ceiling / 2));
    }
  });

  it('is capped at 30 s however many attempts failed', () => {
    expect(backoffDelay(6, () => 0.999)).toBeLessThan(30_000);
    expect(backoffDelay(1000, () => 0.999)).toBe(Math.floor(0.999 * 30_000));
  });

  it('spreads retries over the whole range (full jitter)', () => {
    const delays = Array.from({ length: 2000 }, () => backoffDelay(3)); // ceiling 4000 ms
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...delays)).toBeLessThan(4000);
    expect(delays.filter((d) => d < 1000).length).toBeGreaterThan(300);
    expect(delays.filter((d) => d >= 3000).length).toBeGreaterThan(300);
  });
});

describe('createLiveConnection', () => {
  it('connects without a cursor, then keeps the head from hello and each event cursor', () => {
    const { connection, messages, states } = connect();
    const socket = FakeSocket.last();
    expect(socket.url).toBe('ws://cats.test/api/stream');
    expect(states).toEqual(['connecting']);
    socket.open();
    socket.send({ type: 'hello', cursor: '700-10' });
    expect(connection.cursor).toBe('700-10');
    socket.send(event('701-11'));
    expect(messages).toEqual([event('701-11')]);
    expect(connection.cursor).toBe('701-11');
    expect(states).toEqual(['connecting', 'open']);
  });

  it('resumes after the last cursor it saw when the connection drops', () => {
    const { connection, states } = connect();
    const first = FakeSocket.last();
    first.open();
    first.send({ type: 'hello', cursor: '700-10' });
    first.send(event('702-12'));
    first.drop();
    expect(states.at(-1)).toBe('reconnecting');
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(250); // half of the first ceiling (random = 0.5)
    const second = FakeSocket.last();
    expect(second).not.toBe(first);
    expect(second.after()).toBe('702-12');
    second.open();
    // A resuming client keeps its own cursor, not the newer head the hello reports.
    second.send({ type: 'hello', cursor: '900-40' });
    expect(connection.cursor).toBe('702-12');
    expect(states).toEqual(['connecting', 'open', 'reconnecting', 'open']);
  });

  it('backs off exponentially while the server is unreachable, and starts over after a hello', () => {
    connect();
    const delays: number[] = [];
    for (let i = 0; i < 9; i++) {
      const before = FakeSocket.all.length;
      FakeSocket.last().drop();
      let waited = 0;
      while (FakeSocket.all.length === before) {
        vi.advanceTimersByTime(1);
        waited++;
      }
      delays.push(waited);
    }
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 15000, 15000, 15000]);
    const socket = FakeSocket.last();
    socket.open();
    socket.send({ type: 'hello', cursor: '1-1' });
    socket.drop();
    vi.advanceTimersByTime(249);
    expect(FakeSocket.last()).toBe(socket);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.last()).not.toBe(socket);
  });

  it('on reset tells the app to refetch and follows on from the cursor it was given', () => {
    const { connection, messages, resets } = connect({ cursor: memoryCursorStore('5-5') });
    const socket = FakeSocket.last();
    expect(socket.after()).toBe('5-5');
    socket.open();
    socket.send({ type: 'hello', cursor: '900-40' });
    socket.send({ type: 'reset', cursor: '900-40' });
    expect(resets).toHaveBeenCalledTimes(1);
    expect(messages).toEqual([{ type: 'reset', cursor: '900-40' }]);
    expect(connection.cursor).toBe('900-40');
    socket.drop();
    vi.advanceTimersByTime(250);
    expect(FakeSocket.last().after()).toBe('900-40');
  });

  it('persists the cursor through the store it is given', () => {
    const saved: string[] = [];
    const store = { load: () => saved.at(-1) ?? null, save: (c: string) => void saved.push(c) };
    connect({ cursor: store });
    const socket = FakeSocket.last();
    socket.open();
    socket.send({ type: 'hello', cursor: '10-1' });
    socket.send(event('11-2'));
    expect(saved).toEqual(['10-1', '11-2']);
  });

  it('ignores a stored cursor that is not one, and messages it cannot read', () => {
    const { messages, connection } = connect({ cursor: memoryCursorStore('tomorrow') });
    const socket = FakeSocket.last();
    expect(socket.after()).toBeNull();
    socket.open();
    socket.onmessage?.({ data: 'not json' });
    socket.send({ type: 'cat.added', cursor: 'x; drop', data: {} });
    socket.send({ type: 'something.new', cursor: '12-3', data: {} });
    expect(messages).toEqual([]);
    expect(connection.cursor).toBe('12-3'); // an unknown event still moves the cursor on
  });

  it('stops cleanly: closes the socket, cancels the pending retry and ignores late events', () => {
    const { connection, messages, states } = connect();
    const socket = FakeSocket.last();
    socket.open();
    socket.drop();
    connection.close();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(states.at(-1)).toBe('closed');

    const again = connect();
    const live = FakeSocket.last();
    live.open();
    again.connection.close();
    expect(live.closedWith).toEqual({ code: 1000, reason: 'closed by the app' });
    live.send(event('20-1'));
    live.drop();
    vi.advanceTimersByTime(60_000);
    expect(again.messages).toEqual([]);
    expect(again.states).toEqual(['connecting', 'open', 'closed']);
    expect(messages).toEqual([]);
  });

  it('turns an http or relative URL into the ws one', () => {
    connect({ url: 'https://cats.test/api/stream' });
    expect(FakeSocket.last().url).toBe('wss://cats.test/api/stream');
    connect({ url: '/api/stream' });
    expect(FakeSocket.last().url).toMatch(/^wss?:\/\/[^/]+\/api\/stream$/);
  });
});
