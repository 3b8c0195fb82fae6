// The browser's connection to the live stream (GET /api/stream): resumes after the last cursor
// it saw, reconnects with exponential backoff and full jitter, and reports its state.
// Framework-free; the live store (features/live) builds on it.

import type { LiveEventType, LiveReset } from '../../../contract/live.ts';

export type { LiveEventType } from '../../../contract/live.ts';

export type LiveConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** Every public message type, once: the compiler holds this to exactly the contract's. */
const LIVE_EVENT_TYPES: Record<LiveEventType, true> = {
  'cat.added': true,
  'cat.updated': true,
  'cat.deleted': true,
  'bodega.added': true,
  'bodega.updated': true,
  'bodega.deleted': true,
  'review.posted': true,
  'rating.updated': true,
  'photo.ready': true,
  'photo.primary': true,
  'photo.deleted': true,
  'content.hidden': true,
  'content.restored': true,
};

export function isLiveEventType(type: unknown): type is LiveEventType {
  return typeof type === 'string' && Object.hasOwn(LIVE_EVENT_TYPES, type);
}

/** One public event. `data` is typed by the feature that reads it (features/live/types.ts). */
export type LiveEventMessage = { type: LiveEventType; cursor: string; at: string; data: unknown };

/** `reset`: the server could not replay what this client missed; the app refetches what it shows. */
export type LiveMessage = LiveEventMessage | LiveReset;

/** Where the last cursor is kept: in memory by default, or wherever the app wants it to survive. */
export type CursorStore = { load(): string | null; save(cursor: string): void };

/** The part of the browser's WebSocket this module uses, so tests can hand in their own. */
export type WebSocketLike = {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  close(code?: number, reason?: string): void;
};
export type WebSocketFactory = new (url: string) => WebSocketLike;

export type LiveConnectionOptions = {
  /** `ws(s)://host/api/stream`, or an http(s) or relative URL of the same route. */
  url: string;
  onMessage(message: LiveMessage): void;
  onStateChange?(state: LiveConnectionState): void;
  /** Called on `reset` (which also reaches onMessage): refetch whatever is on screen. */
  onReset?(): void;
  cursor?: CursorStore;
  backoff?: { baseMs?: number; capMs?: number };
  random?: () => number;
  WebSocket?: WebSocketFactory;
};

export type LiveConnection = {
  readonly state: LiveConnectionState;
  readonly cursor: string | null;
  /** Stops for good: closes the socket and cancels any pending reconnect. */
  close(): void;
};

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 30_000;
const CURSOR = /^\d{1,20}-\d{1,20}$/;

/** Full jitter: uniformly random in [0, min(cap, base * 2^attempt)). */
export function backoffDelay(
  attempt: number,
  random: () => number = Math.random,
  baseMs = BACKOFF_BASE_MS,
  capMs = BACKOFF_CAP_MS,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(Math.min(Math.max(random(), 0), 0.999_999) * ceiling);
}

export function memoryCursorStore(initial: string | null = null): CursorStore {
  let cursor = initial;
  return { load: () => cursor, save: (next) => void (cursor = next) };
}

/** The stream URL for a connection that resumes after `cursor`. */
export function streamUrlAfter(url: string, cursor: string | null): string {
  const base = typeof location === 'undefined' ? undefined : location.href;
  const target = new URL(url, base);
  if (target.protocol === 'http:') target.protocol = 'ws:';
  if (target.protocol === 'https:') target.protocol = 'wss:';
  if (cursor) target.searchParams.set('after', cursor);
  else target.searchParams.delete('after');
  return target.toString();
}

export function createLiveConnection(options: LiveConnectionOptions): LiveConnection {
  const Socket = options.WebSocket ?? (globalThis.WebSocket as unknown as WebSocketFactory);
  const cursors = options.cursor ?? memoryCursorStore();
  const random = options.random ?? Math.random;
  let state: LiveConnectionState = 'connecting';
  let socket: WebSocketLike | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;

  const setState = (next: LiveConnectionState) => {
    if (state === next) return;
    state = next;
    options.onStateChange?.(next);
  };
  const storedCursor = () => {
    const value = cursors.load();
    return value && CURSOR.test(value) ? value : null;
  };

  function connect() {
    timer = null;
    const current = new Socket(streamUrlAfter(options.url, storedCursor()));
    socket = current;
    current.onopen = () => {
      if (socket === current) setState('open');
    };
    current.onmessage = (event) => {
      if (socket === current) receive(event.data);
    };
    current.onclose = () => {
      if (socket === current) retry();
    };
    // An error is always followed by close, which does the retrying.
    current.onerror = () => {};
  }

  function retry() {
    socket = null;
    if (state === 'closed') return;
    setState('reconnecting');
    const delay = backoffDelay(failures++, random, options.backoff?.baseMs, options.backoff?.capMs);
    timer = setTimeout(connect, delay);
  }

  function receive(raw: unknown) {
    const message = parse(raw);
    if (!message) return;
    if (message.type === 'hello') {
      // Only a hello proves the server is serving: a socket that opens and drops keeps backing off.
      failures = 0;
      if (!storedCursor() && message.cursor) cursors.save(message.cursor);
      return;
    }
    if (message.cursor) cursors.save(message.cursor);
    if (message.type === 'reset') {
      options.onReset?.();
      options.onMessage({ type: 'reset', cursor: message.cursor });
      return;
    }
    if (isLiveEventType(message.type)) {
      options.onMessage(message as LiveEventMessage);
    }
  }

  function onOnline() {
    if (state !== 'reconnecting' || !timer) return;
    clearTimeout(timer);
    connect();
  }
  globalThis.addEventListener?.('online', onOnline);

  options.onStateChange?.(state);
  connect();

  return {
    get state() {
      return state;
    },
    get cursor() {
      return storedCursor();
    },
    close() {
      if (state === 'closed') return;
      setState('closed');
      globalThis.removeEventListener?.('online', onOnline);
      if (timer) clearTimeout(timer);
      timer = null;
      const current = socket;
      socket = null;
      current?.close(1000, 'closed by the app');
    },
  };
}

type WireMessage = { type: string; cursor?: string; at?: string; data?: unknown };

function parse(raw: unknown): WireMessage | null {
  if (typeof raw !== 'string') return null;
  try {
    const value = JSON.parse(raw) as unknown;
    if (!value || typeof value !== 'object') return null;
    const { type, cursor } = value as WireMessage;
    if (typeof type !== 'string') return null;
    if (cursor !== undefined && (typeof cursor !== 'string' || !CURSOR.test(cursor))) return null;
    return value as WireMessage;
  } catch {
    return null;
  }
}
