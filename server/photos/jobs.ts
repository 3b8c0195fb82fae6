// The photos job brings a photo's objects in line with the log, and the rule for which events cause
// it (keyed by the event's position, so a re-dispatch is a no-op). An uploaded original becomes public
// WebP variants (auto-oriented, every piece of metadata stripped, GIFs reduced to their first
// frame) and the outcome is recorded in the log; a photo the log records as deleted, on its own or
// with its cat or bodega, loses its original and variants. Once the outcome is recorded the
// original goes (it may carry GPS, and nothing reads it again: variants are never re-rendered).
// Safe to retry: variants are rewritten whole under stable keys, the outcome is appended once,
// and deleting a deleted object is a no-op.
import os from 'node:os';
import sharp from 'sharp';
import type { Kysely } from 'kysely';
import type { DB, PhotoRow } from '../db/schema.ts';
import { targetPhotosLock } from '../events/locks.ts';
import { readStream, writeTransaction } from '../events/store.ts';
import type { NewEvent } from '../events/types.ts';
import { streamIds } from '../events/types.ts';
import {
  VARIANTS,
  deletePhotoObjects,
  deleteQuietly,
  originalKeyOf,
  variantKey,
  type PhotoObjects,
} from './objects.ts';
import type { PhotoStorage } from './storage.ts';
import { findPhoto } from './read.ts';
import { VARIANT_SIZES, type PhotoVariant } from './urls.ts';
import type { Services } from '../services.ts';
import { jobId, type DispatchRule } from '../queue/dispatcher.ts';
import type { Processor } from '../queue/jobs.ts';

export const photoUploadedRule: DispatchRule<'PhotoUploaded'> = {
  type: 'PhotoUploaded',
  jobs: (event) => [{ queue: 'photos', id: jobId(event, 'photos'), data: { photo_id: event.data.photo_id } }],
};

export const photoDeletedRule: DispatchRule<'PhotoDeleted'> = {
  type: 'PhotoDeleted',
  jobs: (event) => [{ queue: 'photos', id: jobId(event, 'photos'), data: { photo_id: event.data.photo_id } }],
};

/**
 * Decompression bombs fail as bad input instead of exhausting memory: 50 megapixels is above what
 * a phone takes (about 12 to 48) and half of what libvips would otherwise decode.
 */
export const MAX_INPUT_PIXELS = 50_000_000;

export type RenderedVariant = { data: Buffer; width: number; height: number };
export type RenderedPhoto = Record<PhotoVariant, RenderedVariant>;

/** Input the image decoder rejected: retrying cannot help. */
export class UndecodableImage extends Error {
  override name = 'UndecodableImage';
}

export async function renderVariants(original: Buffer): Promise<RenderedPhoto> {
  try {
    // Without keepMetadata/withMetadata sharp writes no EXIF, XMP, IPTC or ICC; rotate() applies
    // the EXIF orientation first. Only the first frame of an animation is read.
    const oriented = sharp(original, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS }).rotate();
    const rendered = await Promise.all(
      VARIANTS.map(async (variant) => {
        const size = VARIANT_SIZES[variant];
        const { data, info } = await oriented
          .clone()
          .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
          .webp({ quality: 80 })
          .toBuffer({ resolveWithObject: true });
        return [variant, { data, width: info.width, height: info.height }] as const;
      }),
    );
    return Object.fromEntries(rendered) as RenderedPhoto;
  } catch (error) {
    throw new UndecodableImage(error instanceof Error ? error.message : String(error));
  }
}

/**
 * libvips threads per image. In embedded mode the api shares this process's cores with the
 * worker, so leave it half of them; a dedicated worker process may use them all.
 */
export function configureSharp(embedded: boolean): void {
  const cores = os.availableParallelism();
  sharp.concurrency(embedded ? Math.max(1, Math.floor(cores / 2)) : cores);
  // Each original is read once; caching decoded files only holds memory and file handles.
  sharp.cache({ files: 0 });
}

export function createPhotosProcessor(services: Services): Processor<'photos'> {
  const { database, store, photoStorage, logger } = services;
  const { db } = database;
  configureSharp(services.queue.kind === 'inline');

  /** Appends the outcome unless the photo was deleted meanwhile; false when it was. */
  async function record(photo: PhotoRow, event: NewEvent, idempotencyKey: string): Promise<boolean> {
    const target = { type: photo.target_type, id: Number(photo.target_id) };
    const locks = [targetPhotosLock(target)];
    return writeTransaction(
      db,
      async (tx) => {
        if (!(await findPhoto(tx.trx, Number(photo.id)))) return false;
        await store.append(tx, streamIds.photo(Number(photo.id)), 'any', [event], { idempotencyKey });
        return true;
      },
      { locks },
    );
  }

  /** The original is needed only until the photo's outcome is in the log. */
  async function removeOriginal(photo: PhotoRow): Promise<void> {
    try {
      await deleteQuietly(photoStorage, originalKeyOf(photo.original_path), logger);
    } catch (error) {
      logger.warn({ err: error, photoId: photo.id }, 'photo has an unexpected original path; left in place');
    }
  }

  async function fail(photo: PhotoRow, reason: string): Promise<void> {
    logger.warn({ photoId: photo.id, reason }, 'photo could not be processed');
    const id = Number(photo.id);
    // Retrying cannot help (undecodable or missing), so the original is of no further use.
    await record(
      photo,
      {
        type: 'PhotoFailed',
        data: { photo_id: id, target_type: photo.target_type, target_id: Number(photo.target_id), reason },
      },
      `photo-failed-${id}`,
    );
    await removeOriginal(photo);
  }

  return async ({ photo_id }) => {
    const photo = await findPhoto(db, photo_id);
    if (!photo) {
      const deleted = await objectsOfDeletedPhoto(db, photo_id);
      if (deleted) await deletePhotoObjects(photoStorage, deleted, logger);
      return;
    }
    // Already done by an earlier attempt: nothing to do but what that attempt may not have
    // finished (a crash between recording the outcome and removing the original).
    if (photo.status !== 'processing') return removeOriginal(photo);

    const original = await readOriginal(photoStorage, photo);
    if (!original) {
      if (await findPhoto(db, photo_id)) await fail(photo, 'The original file is missing');
      return;
    }
    let rendered: RenderedPhoto;
    try {
      rendered = await renderVariants(original);
    } catch (error) {
      if (!(error instanceof UndecodableImage)) throw error;
      await fail(photo, `The file could not be read as an image: ${error.message.slice(0, 200)}`);
      return;
    }

    const keys = VARIANTS.map((v) => variantKey(photo.target_type, photo.filename, v));
    await Promise.all(VARIANTS.map((v, i) => photoStorage.put(keys[i]!, rendered[v].data)));
    const recorded = await record(
      photo,
      {
        type: 'PhotoProcessed',
        data: {
          photo_id,
          target_type: photo.target_type,
          target_id: Number(photo.target_id),
          width: rendered.large.width,
          height: rendered.large.height,
          thumb_width: rendered.thumb.width,
          thumb_height: rendered.thumb.height,
        },
      },
      `photo-processed-${photo_id}`,
    );
    // Deleted while we worked: its delete may have run before these objects existed.
    if (!recorded) await Promise.all(keys.map((key) => deleteQuietly(photoStorage, key, logger)));
    await removeOriginal(photo);
  };
}

function readOriginal(storage: PhotoStorage, photo: PhotoRow): Promise<Buffer | null> {
  return storage.get(originalKeyOf(photo.original_path));
}

/**
 * The objects a photo's upload named, when its own stream records its deletion; otherwise null, so
 * that nothing is removed on the word of the read table alone. Names are random per upload, so
 * these objects belong to no other photo.
 */
async function objectsOfDeletedPhoto(db: Kysely<DB>, photoId: number): Promise<PhotoObjects | null> {
  const events = await readStream(db, streamIds.photo(photoId), ['PhotoUploaded', 'PhotoDeleted']);
  const upload = events.find((e) => e.type === 'PhotoUploaded');
  if (upload?.type !== 'PhotoUploaded' || !events.some((e) => e.type === 'PhotoDeleted')) return null;
  const { target_type, filename, original_path } = upload.data;
  return { target_type, filename, original_path };
}
