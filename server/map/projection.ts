// The map's cells as a projection of the log (see contract/map-grid.ts): every located, visible cat
// or bodega counts in one cell of each stored level. The projection itself is the database
// function map_apply (migrations 20261202_0101 and 20261203_0101): a trigger hands it each
// transaction's map events at commit, in the append's transaction, and replay hands it each batch
// of the log here.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { chunks, type CommitTimeProjection } from '../events/projection.ts';
import { VISIBILITY_EVENTS } from '../events/targets.ts';
import type { RecordedEvent } from '../events/types.ts';

/** The events map_apply reads; its trigger fires on the same (a test compares them). */
const HANDLES = [
  'BodegaAdded',
  'BodegaUpdated',
  'BodegaDeleted',
  'CatAdded',
  'CatDeleted',
  ...VISIBILITY_EVENTS,
] as const;

/** The fields map_apply reads: an event's other fields (names, descriptions) need not travel. */
const PLACE_FIELDS = [
  'bodega_id',
  'cat_id',
  'latitude',
  'longitude',
  'target_type',
  'target_id',
  'parent_id',
];

function placeFields(data: object): Record<string, unknown> {
  const fields = data as Record<string, unknown>;
  return Object.fromEntries(PLACE_FIELDS.filter((f) => f in fields).map((f) => [f, fields[f]]));
}

async function apply(trx: Kysely<DB>, events: readonly RecordedEvent[], withCells: boolean): Promise<void> {
  for (const part of chunks(events, 20_000)) {
    const batch = part.map((event) => ({ t: event.type, d: placeFields(event.data) }));
    await sql`select public.map_apply(${JSON.stringify(batch)}::jsonb, ${withCells})`.execute(trx);
  }
}

const applyBatch = (trx: Kysely<DB>, events: readonly RecordedEvent[]) => apply(trx, events, true);

export const mapProjection: CommitTimeProjection = {
  name: 'map',
  tables: ['map_places', 'map_cells', 'map_hidden_cats'],
  handles: HANDLES,
  applyBatch,
  // The cells are a sum over the places (migration 20261203_0101): a rebuild keeps the places batch
  // by batch and adds the cells up once at the end.
  rebuild: {
    replaces: applyBatch,
    applyBatch: (trx, events) => apply(trx, events, false),
    async finish(trx) {
      await sql`select public.map_cells_from_places()`.execute(trx);
    },
  },
};
