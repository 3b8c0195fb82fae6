// Cards made by this process, kept by key (an item's card version) in a least-recently-used map
// bounded by their bytes, so a crawler storm over many links cannot grow the heap without bound.
// Requests for a card being made wait for that one making instead of making it again, and at most
// `makers` cards are made at once: a crawler (or anyone) asking for the cards of many items in a
// burst queues here instead of filling libuv's thread pool, which the process's file reads share.

/** Where a card came from: kept from before, made for this request, or made for another one. */
export type CardSource = 'hit' | 'miss' | 'wait';

export type CardCache = {
  /** The card under `key`: kept, being made, or made now by `make` (once, however many ask). */
  get(key: string, make: () => Promise<Buffer>): Promise<{ card: Buffer; source: CardSource }>;
  /** What the cache holds: cards, their bytes, and how many makings ran. */
  stats(): { entries: number; bytes: number; made: number };
};

/** Cards made at the same time by one process when not told otherwise. */
export const CARD_MAKERS = 2;

export function createCardCache(maxBytes: number, makers = CARD_MAKERS): CardCache {
  // A Map iterates in insertion order: re-inserting on a hit makes the first key the least recent.
  const kept = new Map<string, Buffer>();
  const making = new Map<string, Promise<Buffer>>();
  let bytes = 0;
  let made = 0;
  let running = 0;
  const queued: (() => void)[] = [];

  /** Runs `make` once fewer than `makers` makings are running, in the order asked. */
  async function inTurn(make: () => Promise<Buffer>): Promise<Buffer> {
    if (running >= makers) await new Promise<void>((resolve) => queued.push(resolve));
    else running += 1;
    try {
      return await make();
    } finally {
      // The slot passes straight to the next in line, or is freed.
      const next = queued.shift();
      if (next) next();
      else running -= 1;
    }
  }

  function keep(key: string, card: Buffer): void {
    // A card larger than the whole bound is served but not kept.
    if (card.length > maxBytes) return;
    const old = kept.get(key);
    if (old) {
      kept.delete(key);
      bytes -= old.length;
    }
    kept.set(key, card);
    bytes += card.length;
    for (const [oldest, value] of kept) {
      if (bytes <= maxBytes) break;
      kept.delete(oldest);
      bytes -= value.length;
    }
  }

  return {
    get(key, make) {
      const hit = kept.get(key);
      if (hit) {
        kept.delete(key);
        kept.set(key, hit);
        return Promise.resolve({ card: hit, source: 'hit' });
      }
      const pending = making.get(key);
      if (pending) return pending.then((card) => ({ card, source: 'wait' }));
      made += 1;
      const started = inTurn(make).then(
        (card) => {
          making.delete(key);
          keep(key, card);
          return card;
        },
        (error: unknown) => {
          // A failed making is not remembered: the next request tries again.
          making.delete(key);
          throw error;
        },
      );
      making.set(key, started);
      return started.then((card) => ({ card, source: 'miss' }));
    },
    stats: () => ({ entries: kept.size, bytes, made }),
  };
}
