// The objects a photo has in storage (storage.ts), under keys the server chooses: the upload's
// original at originals/<name>.<ext> (private, kept until the photos job has made the variants)
// and its public variants at cats|bodegas/<name>_<variant>.webp, which /uploads serves. <name> is
// random per upload, so it says nothing about the uploader or the file and no two photos share it.
import { randomBytes } from 'node:crypto';
import type { TargetType } from '../db/schema.ts';
import {
  InvalidObjectKey,
  isObjectKey,
  type ObjectKey,
  type PhotoStorage,
  type StagedObject,
} from './storage.ts';
import { targetFolder, variantFileName, type PhotoVariant } from './urls.ts';

/** Anything that can log a warning: the app's logger or a request's. */
export type WarnLogger = { warn(obj: object, msg?: string): void };

export const VARIANTS: readonly PhotoVariant[] = ['thumb', 'large'];

const ORIGINALS = 'originals';

/** A fresh name for a photo: random, so it says nothing about the uploader or the file. */
export function newPhotoFilename(): string {
  return randomBytes(16).toString('hex');
}

/** The original's key, as recorded in PhotoUploaded (original_path). */
export function originalKey(filename: string, extension: string): ObjectKey {
  return `${ORIGINALS}/${filename}.${extension}`;
}

/** A recorded original's key, refusing anything but an object directly in originals/. */
export function originalKeyOf(recorded: string): ObjectKey {
  const [folder, name, ...rest] = recorded.split('/');
  if (folder !== ORIGINALS || !name || rest.length > 0 || !isObjectKey(recorded))
    throw new InvalidObjectKey(recorded);
  return recorded;
}

export function variantKey(type: TargetType, filename: string, variant: PhotoVariant): ObjectKey {
  return `${targetFolder(type)}/${variantFileName(filename, variant)}`;
}

/** Best effort: an object left behind is logged, never turned into a failed request. */
export async function deleteQuietly(
  storage: PhotoStorage,
  key: ObjectKey,
  logger?: WarnLogger,
): Promise<void> {
  try {
    await storage.delete(key);
  } catch (error) {
    logger?.warn({ err: error, key }, 'could not remove a photo object');
  }
}

/** Best effort, as deleteQuietly: an upload received but not (or no longer) wanted. */
export async function discardQuietly(staged: StagedObject, logger?: WarnLogger): Promise<void> {
  try {
    await staged.discard();
  } catch (error) {
    logger?.warn({ err: error }, 'could not remove a received upload');
  }
}

/** What names a photo's objects: its upload's kind of target, name and original. */
export type PhotoObjects = { target_type: TargetType; filename: string; original_path: string };

/** Deletes a photo's variants and original (best effort, as deleteQuietly). */
export async function deletePhotoObjects(
  storage: PhotoStorage,
  photo: PhotoObjects,
  logger?: WarnLogger,
): Promise<void> {
  const keys = VARIANTS.map((v) => variantKey(photo.target_type, photo.filename, v));
  try {
    keys.push(originalKeyOf(photo.original_path));
  } catch (error) {
    logger?.warn({ err: error }, 'photo has an unexpected original path; left in place');
  }
  await Promise.all(keys.map((key) => deleteQuietly(storage, key, logger)));
}
