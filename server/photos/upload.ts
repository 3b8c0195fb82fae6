// Receives a photo upload: streams the file part to a temporary file under UPLOAD_DIR with a hard
// size limit, decides its type from its bytes, and reads the optional caption and is_primary.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import {
  CODE_POINTS_PER_CHARACTER,
  TEXT_LIMITS,
  lengthProblem,
  tooManyCodePoints,
} from '../../contract/text-limits.ts';
import { AppError, Invalid, PayloadTooLarge, UnsupportedMediaType } from '../errors.ts';
import { cleanFreeText } from '../http/text.ts';
import { incomingDir, removeQuietly } from './files.ts';
import { detectImageType, SIGNATURE_BYTES, type ImageType } from './image-type.ts';

export const MAX_PHOTO_BYTES = 5242880;
export const FILE_TOO_LARGE = 'File too large. Please upload an image smaller than 5MB.';
export const INVALID_FILE_TYPE = 'Invalid file type. Please upload a JPEG, PNG, GIF, or WebP image.';
export const NOT_MULTIPART = 'Photo uploads must be sent as multipart/form-data';

const FIELDS = ['caption', 'is_primary'] as const;

export const MULTIPART_LIMITS = {
  fileSize: MAX_PHOTO_BYTES,
  files: 1,
  fields: FIELDS.length,
  parts: FIELDS.length + 1,
  fieldNameSize: 100,
  // Room for every caption the limit takes (up to 4 UTF-8 bytes for each of its code points); a
  // longer value is reported as too long.
  fieldSize: TEXT_LIMITS.caption * CODE_POINTS_PER_CHARACTER * 4,
  headerPairs: 20,
};

export type ReceivedPhoto = {
  tempPath: string;
  type: ImageType;
  size: number;
  sha256: string;
  caption: string;
  makePrimary: boolean;
};

type SavedFile = Pick<ReceivedPhoto, 'tempPath' | 'type' | 'size' | 'sha256'>;

export function isMultipartRequest(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && /^multipart\/form-data\s*(;|$)/i.test(type);
}

export async function receivePhotoUpload(request: FastifyRequest, uploadDir: string): Promise<ReceivedPhoto> {
  const fields: Partial<Record<(typeof FIELDS)[number], string>> = {};
  let saved: SavedFile | null = null;
  try {
    for await (const part of request.parts({ limits: MULTIPART_LIMITS })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'photo') {
          part.file.resume();
          throw new Invalid(`Unexpected file field "${part.fieldname}": send the image as "photo"`, {
            [part.fieldname]: 'is not a known field',
          });
        }
        saved = await saveIncoming(part.file, uploadDir);
        continue;
      }
      if (part.fieldname === 'photo')
        throw new Invalid('photo must be a file', { photo: 'must be a file, not a text field' });
      const name = part.fieldname as (typeof FIELDS)[number];
      if (!FIELDS.includes(name))
        throw new Invalid(`Unknown field "${part.fieldname}"`, { [part.fieldname]: 'is not a known field' });
      if (part.valueTruncated) throw captionTooLong(String(part.value));
      fields[name] = String(part.value);
    }
    if (!saved) throw new Invalid('Choose a photo to upload', { photo: 'is required' });
    return { ...saved, caption: captionOf(fields.caption), makePrimary: isPrimaryOf(fields.is_primary) };
  } catch (error) {
    if (saved) await removeQuietly(saved.tempPath, request.log);
    throw uploadError(error);
  }
}

/** Streams one file part to disk; removes it again if it is too large or not an image. */
async function saveIncoming(file: Readable & { truncated?: boolean }, uploadDir: string): Promise<SavedFile> {
  const dir = incomingDir(uploadDir);
  await fs.mkdir(dir, { recursive: true });
  const tempPath = path.join(dir, `${randomBytes(16).toString('hex')}.part`);
  const hash = createHash('sha256');
  let head = Buffer.alloc(0);
  let size = 0;
  const inspect = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      hash.update(chunk);
      if (head.length < SIGNATURE_BYTES)
        head = Buffer.concat([head, chunk.subarray(0, SIGNATURE_BYTES - head.length)]);
      done(null, chunk);
    },
  });
  // Opened before any byte is read: a body that breaks off then finds the file there to remove,
  // instead of a write stream still creating it after the clean-up ran.
  const out = (await fs.open(tempPath, 'wx')).createWriteStream();
  try {
    await pipeline(file, inspect, out);
    // busboy stops at the limit and marks the part truncated; whatever arrived is not kept.
    if (file.truncated || size > MAX_PHOTO_BYTES) throw new PayloadTooLarge(FILE_TOO_LARGE);
    const type = detectImageType(head);
    if (!type) throw new UnsupportedMediaType(INVALID_FILE_TYPE);
    return { tempPath, type, size, sha256: hash.digest('hex') };
  } catch (error) {
    out.destroy();
    await removeQuietly(tempPath);
    throw error;
  }
}

/** A caption cut off at `fieldSize`: over the limit of code points, if not of characters too. */
function captionTooLong(start: string): Invalid {
  const message = lengthProblem(start, TEXT_LIMITS.caption) ?? tooManyCodePoints(TEXT_LIMITS.caption);
  return new Invalid(`caption ${message}`, { caption: message });
}

function captionOf(raw: string | undefined): string {
  return cleanFreeText('caption', raw ?? '', TEXT_LIMITS.caption);
}

function isPrimaryOf(raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new Invalid('is_primary must be "true" or "false"', { is_primary: 'must be "true" or "false"' });
}

/** Maps the multipart parser's errors to the contract's 4xx; file system errors stay 500s. */
function uploadError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const e = error as { code?: string; syscall?: string } | null;
  if (!e || typeof e !== 'object' || e.syscall) return error;
  switch (e.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new PayloadTooLarge(FILE_TOO_LARGE);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new UnsupportedMediaType(NOT_MULTIPART);
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new Invalid('Send one photo, with an optional caption and is_primary');
    default:
      return new Invalid('The upload is not a well-formed multipart form');
  }
}
