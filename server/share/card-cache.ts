// Cards made by this process, kept by key (an item's card version) in a least-recently-used map
// bounded by their bytes, so a crawler storm over many links cannot grow the heap without bound.
// Requests for a card being made wait for that one making instead of making it again.

/** Where a card came from: kept from before, made for this request, or made for another one. */
export type CardSource = 'hit' | 'miss' | 'wait';

export type CardCache = {
  /** The card under `key`: kept, being made, or made now by `make` (once, however many ask). */
  get(key: string, make: () => Promise<Buffer>): Promise<{ card: Buffer; source: CardSource }>;
  /** What the cache holds: cards, their bytes, and how many makings ran. */
  stats(): { entries: number; bytes: number; made: number };
};

export function createCardCache(maxBytes: number): CardCache {
  // A Map iterates in insertion order: re-inserting on a hit makes the first key the least recent.
  const kept = new Map<string, Buffer>();
  const making = new Map<string, Promise<Buffer>>();
  let bytes = 0;
  let made = 0;

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
      const started = make().then(
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
