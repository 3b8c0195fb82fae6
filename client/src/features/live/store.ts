// The live-events store: one WebSocket for the whole app, opened while any screen listens.
// Screens subscribe to events and apply them in place; new cats are also collected here so the
// search screen can announce them ('N new cats').
import { create } from 'zustand';
import { env } from '../../config/env.ts';
import { createLiveConnection, type LiveConnectionState } from '../../lib/live.ts';
import type { CatSummary } from '../../lib/catalogue.ts';
import { isLiveEvent, type LiveListener, type LiveMessage } from './types.ts';

/** 'idle' until a screen first listens, then the connection's own state. */
export type LiveStatus = LiveConnectionState | 'idle';

/** How long the socket stays open after the last listener leaves (page-to-page navigation). */
const IDLE_CLOSE_MS = 5000;

export type LiveState = {
  connection: LiveStatus;
  /** Cursor of the last event received; a reconnect resumes after it. */
  cursor: string | null;
  /** Cats added since the screen last acknowledged them, newest last. */
  newCats: CatSummary[];
  /**
   * Listen to every event (and resets); opens the connection unless `passive` (the query cache
   * follows the stream only while some screen keeps it open). Returns the unsubscribe.
   */
  subscribe(listener: LiveListener, options?: { passive?: boolean }): () => void;
  acknowledgeNewCats(): void;
};

type Connection = { close(): void };

/** The stream's address; the connection turns http(s) into ws(s) and adds the resume cursor. */
export function liveStreamUrl(base = env.apiBaseUrl): string {
  return `${base}/api/stream`;
}

export const useLiveStore = create<LiveState>()((set, get) => {
  const listeners = new Set<LiveListener>();
  /** The listeners that keep the connection open. */
  const active = new Set<LiveListener>();
  let connection: Connection | null = null;
  let idleTimer: ReturnType<typeof setTimeout> | null = null;

  function deliver(message: LiveMessage) {
    for (const listener of [...listeners]) {
      try {
        listener(message);
      } catch (error) {
        console.error('live listener failed', error);
      }
    }
  }

  function handle(raw: unknown) {
    if (raw && typeof raw === 'object' && (raw as { type?: unknown }).type === 'reset') {
      set({ newCats: [] });
      deliver({ type: 'reset' });
      return;
    }
    if (!isLiveEvent(raw)) return;
    set({ cursor: raw.cursor });
    if (raw.type === 'cat.added') set({ newCats: [...get().newCats, raw.data] });
    if (raw.type === 'cat.deleted') set({ newCats: get().newCats.filter((cat) => cat.id !== raw.data.id) });
    if (raw.type === 'content.hidden' && raw.data.target_type === 'cat') {
      const hiddenId = raw.data.target_id;
      set({ newCats: get().newCats.filter((cat) => cat.id !== hiddenId) });
    }
    deliver(raw);
  }

  function open() {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    if (connection || !env.apiConfigured) return;
    connection = createLiveConnection({
      url: liveStreamUrl(),
      onMessage: handle,
      onStateChange: (state) => set({ connection: state }),
    });
  }

  function closeWhenIdle() {
    if (active.size > 0 || idleTimer) return;
    idleTimer = setTimeout(() => {
      idleTimer = null;
      if (active.size > 0) return;
      connection?.close();
      connection = null;
      set({ newCats: [], connection: 'idle' });
    }, IDLE_CLOSE_MS);
  }

  return {
    connection: 'idle',
    cursor: null,
    newCats: [],
    subscribe(listener, options) {
      // A wrapper of its own, so one function subscribed twice is two subscriptions.
      const entry: LiveListener = (message) => listener(message);
      listeners.add(entry);
      if (options?.passive) return () => void listeners.delete(entry);
      active.add(entry);
      open();
      return () => {
        listeners.delete(entry);
        active.delete(entry);
        closeWhenIdle();
      };
    },
    acknowledgeNewCats() {
      set({ newCats: [] });
    },
  };
});
