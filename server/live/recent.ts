// The broadcaster's recent events: the last `capacity` events of the log it has consumed, in log
// order, each with its frame once built. A resume is served from here, without reading the log.
// It holds every event after its floor, so a cursor older than the floor has more than `capacity`
// events after it.
import { compareCursors, type Cursor } from '../events/consumer.ts';
import type { RecordedEvent } from '../events/types.ts';
import type { Frame } from './hub.ts';
import type { Subject } from './visibility.ts';

/** A built message: its frame and the items it shows. */
export type Built = { frame: Frame; subjects: readonly Subject[] };

export type Entry = {
  cursor: Cursor;
  /** The event, while its message may still have to be built (null once it never will). */
  event: RecordedEvent | null;
  /** Its message, once asked for: null when it has none (private, or nothing left to show). */
  built?: Promise<Built | null>;
};

export class RecentEvents {
  #entries: Entry[] = [];
  /** Index of the oldest entry kept; those before it are dropped and compacted away in batches. */
  #first = 0;
  #floor: Cursor;

  constructor(
    readonly capacity: number,
    floor: Cursor,
    entries: Entry[] = [],
  ) {
    this.#floor = floor;
    this.append(entries);
  }

  /** The cursor every kept event comes after. */
  get floor(): Cursor {
    return this.#floor;
  }

  get size(): number {
    return this.#entries.length - this.#first;
  }

  /** Adds events after the newest kept one, dropping the oldest beyond the capacity. */
  append(entries: readonly Entry[]): void {
    this.#entries.push(...entries);
    while (this.size > this.capacity) {
      this.#floor = this.#entries[this.#first]!.cursor;
      this.#first++;
    }
    if (this.#first >= this.capacity) {
      this.#entries = this.#entries.slice(this.#first);
      this.#first = 0;
    }
  }

  /** The kept events after `cursor`, oldest first; null when events after it are no longer kept. */
  after(cursor: Cursor): Entry[] | null {
    if (compareCursors(cursor, this.#floor) < 0) return null;
    let low = this.#first;
    let high = this.#entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareCursors(this.#entries[middle]!.cursor, cursor) <= 0) low = middle + 1;
      else high = middle;
    }
    return this.#entries.slice(low);
  }

  /** Every kept entry, oldest first. */
  *entries(): Iterable<Entry> {
    for (let i = this.#first; i < this.#entries.length; i++) yield this.#entries[i]!;
  }
}
