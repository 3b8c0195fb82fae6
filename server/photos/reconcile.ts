// The photos' unfinished work, for the reconciler (server/queue/reconciler.ts): a photo still
// processing long after its upload, whose job was lost; and stored objects no photo refers to,
// which its sweep removes.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { ReconcileRule, ReconcileSweep } from '../queue/reconciler.ts';
import type { Services } from '../services.ts';
import { variantKeyFor } from './serve.ts';
import type { ObjectKey } from './storage.ts';

export function stalePhotosRule(staleMinutes: number): ReconcileRule {
  return {
    async find(trx) {
      const { rows } = await sql<{ id: number }>`
        select id from photos
        where status = 'processing' and created_at < now() - ${staleMinutes} * interval '1 minute'
        order by id limit 1000`.execute(trx);
      return rows.map(({ id }) => ({ queue: 'photos', id: String(id), data: { photo_id: Number(id) } }));
    },
  };
}

export type OrphanSweepOptions = {
  /** Only objects last written this long ago are looked at (ORPHAN_MIN_AGE_HOURS). */
  minAgeHours: number;
  /** Old objects a run looks at; the next run goes on from the last of them. */
  scanLimit?: number;
  /** Objects a run removes at most, orphans and abandoned uploads each. */
  removeLimit?: number;
};

/** What a stored object belongs to, by its key; null for a key the photos do not make. */
type Owner =
  { kind: 'original'; key: ObjectKey } | { kind: 'variant'; targetType: 'cat' | 'bodega'; filename: string };

function ownerOf(key: ObjectKey): Owner | null {
  const [folder, name, ...rest] = key.split('/');
  if (folder === 'originals' && name && rest.length === 0) return { kind: 'original', key };
  if (variantKeyFor(key) !== key) return null;
  return {
    kind: 'variant',
    targetType: folder === 'cats' ? 'cat' : 'bodega',
    filename: name!.replace(/_(thumb|large)\.webp$/, ''),
  };
}

/**
 * The keys among `keys` (each with its owner) that no photo row refers to, in their order. An
 * original is referred to only while its photo is processing: once the outcome is recorded the
 * photos job removes it, and one that removal missed (the storage was down) goes here.
 */
async function unreferenced(db: Kysely<DB>, keys: { key: ObjectKey; owner: Owner }[]): Promise<ObjectKey[]> {
  const originals = keys.flatMap(({ owner }) => (owner.kind === 'original' ? [owner.key] : []));
  const filenames = keys.flatMap(({ owner }) => (owner.kind === 'variant' ? [owner.filename] : []));
  const rows = await db
    .selectFrom('photos')
    .select(['target_type', 'filename', 'original_path', 'status'])
    .where((eb) =>
      eb.or([
        ...(originals.length > 0 ? [eb('original_path', 'in', originals)] : []),
        ...(filenames.length > 0 ? [eb('filename', 'in', filenames)] : []),
      ]),
    )
    .execute();
  const originalsKept = new Set(rows.filter((r) => r.status === 'processing').map((r) => r.original_path));
  const variantsKept = new Set(rows.map((r) => `${r.target_type}/${r.filename}`));
  return keys
    .filter(({ owner }) =>
      owner.kind === 'original'
        ? !originalsKept.has(owner.key)
        : !variantsKept.has(`${owner.targetType}/${owner.filename}`),
    )
    .map(({ key }) => key);
}

/**
 * Removes stored objects older than `minAgeHours` that no photo row refers to: the original of an
 * upload whose photo was never recorded (a process stopped between keeping it and the append) or
 * whose photo is processed (its removal failed), the variants of a photo that is gone (its job's
 * removal failed or never ran), and what uploads of a
 * stopped process left (PhotoStorage.removeAbandoned). An object that old is past any upload or job
 * still under way: a photo's row is written with its upload, and its variants while its row is there.
 * Keys the photos do not make are left alone. A run looks at `scanLimit` old objects, the next
 * going on from there, so a large bucket is covered over several passes.
 */
export function orphanObjectsSweep(
  services: Pick<Services, 'database' | 'photoStorage' | 'logger'>,
  options: OrphanSweepOptions,
): ReconcileSweep {
  const { database, photoStorage, logger } = services;
  const scanLimit = options.scanLimit ?? 5000;
  const removeLimit = options.removeLimit ?? 500;
  /** Where the next run's scan starts; undefined: from the first key. */
  let after: ObjectKey | undefined;

  return {
    async run() {
      const olderThan = new Date(Date.now() - options.minAgeHours * 3_600_000);
      const scanned: { key: ObjectKey; owner: Owner }[] = [];
      let last: ObjectKey | undefined;
      for await (const key of photoStorage.list({ olderThan, after })) {
        last = key;
        const owner = ownerOf(key);
        if (owner) scanned.push({ key, owner });
        if (scanned.length >= scanLimit) break;
      }
      const orphans = scanned.length > 0 ? await unreferenced(database.db, scanned) : [];
      const removing = orphans.slice(0, removeLimit);
      // More orphans than a run removes: the next run starts at the first one left.
      after = orphans.length > removeLimit ? removing.at(-1) : scanned.length >= scanLimit ? last : undefined;
      for (const key of removing) await photoStorage.delete(key);
      const abandoned = await photoStorage.removeAbandoned({ olderThan, limit: removeLimit });
      if (removing.length > 0 || abandoned > 0)
        logger.info(
          { orphans: removing.length, abandoned, keys: removing.slice(0, 20), olderThan },
          'removed photo objects nothing refers to',
        );
      return removing.length + abandoned;
    },
  };
}
