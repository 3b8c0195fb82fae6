// What a domain that keeps something about a person gives the account's deletion (deletion.ts)
// and export (export.ts). Each such domain exports one PersonalData from its own personal-data.ts;
// server/personal-data.ts lists them and hands the list to both, so neither reaches into another
// domain's commands or tables.
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { EventStore, WriteTx } from '../events/store.ts';
import type { EventMetadata } from '../events/types.ts';
import type { Services } from '../services.ts';

/** One account's deletion, as each domain's part of it sees it. */
export type Erasure = {
  /** The deletion's transaction, which holds the person's account lock (see deleteAccount). */
  tx: WriteTx;
  store: EventStore;
  userId: number;
  /** The deletion's metadata, for the events a part appends. */
  metadata: EventMetadata;
};

/** What a part of a deletion did, and what it leaves for after the commit. */
export type Erased = {
  /** How many of its items went, by kind ({ photos: 2 }), for the operator's summary. */
  removed?: Record<string, number>;
  /** Runs once the deletion has committed: what lives outside the database (photo files). */
  afterCommit?: (services: Services) => Promise<void>;
};

export type PersonalData<Part extends object = object> = {
  /**
   * Removes the person's part, in the deletion's transaction, before AccountDeleted: what others
   * see leaves the log the way a single deletion does (so ratings are recomputed and photo files
   * removed by the jobs those events dispatch), and rows that are not events are deleted. What
   * the domain's projection removes on AccountDeleted is left to it.
   */
  erase(erasure: Erasure): Promise<Erased | void>;
  /** The person's part of their export, read in the export's repeatable-read transaction. */
  export(trx: Kysely<DB>, userId: number): Promise<Part>;
};
