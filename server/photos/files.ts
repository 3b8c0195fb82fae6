// Where photo files live under UPLOAD_DIR: private originals and incoming uploads, and the public
// variant folders that /uploads serves. File names are always chosen by the server.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { TargetType } from '../db/schema.ts';
import { targetFolder, variantFileName, type PhotoVariant } from './urls.ts';

/** Anything that can log a warning: the app's logger or a request's. */
export type WarnLogger = { warn(obj: object, msg?: string): void };

export const VARIANTS: readonly PhotoVariant[] = ['thumb', 'large'];

export function originalsDir(uploadDir: string): string {
  return path.join(uploadDir, 'originals');
}

/** Uploads being received; a finished upload is renamed into originals/. */
export function incomingDir(uploadDir: string): string {
  return path.join(uploadDir, 'incoming');
}

export function variantsDir(uploadDir: string, type: TargetType): string {
  return path.join(uploadDir, targetFolder(type));
}

export function variantPath(uploadDir: string, type: TargetType, filename: string, variant: PhotoVariant) {
  return path.join(variantsDir(uploadDir, type), variantFileName(filename, variant));
}

/** A fresh name for a photo: random, so it says nothing about the uploader or the file. */
export function newPhotoFilename(): string {
  return randomBytes(16).toString('hex');
}

/** The original's path relative to UPLOAD_DIR, as recorded in PhotoUploaded. */
export function originalRelativePath(filename: string, extension: string): string {
  return path.posix.join('originals', `${filename}.${extension}`);
}

/** Resolves a recorded original path, refusing anything outside originals/. */
export function resolveOriginal(uploadDir: string, relative: string): string {
  const root = originalsDir(uploadDir);
  const full = path.resolve(uploadDir, relative);
  if (path.dirname(full) !== root) throw new Error(`original path outside originals/: ${relative}`);
  return full;
}

export function temporarySibling(file: string): string {
  return `${file}.${randomBytes(6).toString('hex')}.tmp`;
}

/** Writes through a temporary name and renames, so readers never see half a file and a rewrite replaces it whole. */
export async function writeFileAtomically(file: string, data: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temporary = temporarySibling(file);
  try {
    await fs.writeFile(temporary, data);
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

/** Best effort: a file left behind is logged, never turned into a failed request. */
export async function removeQuietly(file: string, logger?: WarnLogger): Promise<void> {
  try {
    await fs.rm(file, { force: true });
  } catch (error) {
    logger?.warn({ err: error, file }, 'could not remove a photo file');
  }
}

export async function removePhotoFiles(
  uploadDir: string,
  photo: { target_type: TargetType; filename: string; original_path: string },
  logger?: WarnLogger,
): Promise<void> {
  const files = VARIANTS.map((v) => variantPath(uploadDir, photo.target_type, photo.filename, v));
  try {
    files.push(resolveOriginal(uploadDir, photo.original_path));
  } catch (error) {
    logger?.warn({ err: error }, 'photo has an unexpected original path; left in place');
  }
  await Promise.all(files.map((f) => removeQuietly(f, logger)));
}
