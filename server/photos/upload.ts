// Receives a photo upload: streams the file part into photo storage as a staged object (kept under
// its key only once the upload is recorded) with a hard size limit and a bound on how slowly it may
// arrive, decides its type from its bytes, and reads the optional caption and is_primary.
import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import {
  CODE_POINTS_PER_CHARACTER,
  TEXT_LIMITS,
  lengthProblem,
  tooManyCodePoints,
} from '../../contract/text-limits.ts';
import type { UploadPace } from '../config.ts';
import { AppError, Invalid, PayloadTooLarge, UnsupportedMediaType } from '../errors.ts';
import { exemptFromRequestTimeout } from '../http/client-errors.ts';
import { cleanFreeText } from '../http/text.ts';
import { detectImageType, SIGNATURE_BYTES, type ImageType } from './image-type.ts';
import { discardQuietly } from './objects.ts';
import type { PhotoStorage, StagedObject } from './storage.ts';

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
  /** The file's bytes, until they are kept as the photo's original or discarded. */
  staged: StagedObject;
  type: ImageType;
  size: number;
  sha256: string;
  caption: string;
  makePrimary: boolean;
};

type SavedFile = Pick<ReceivedPhoto, 'staged' | 'type' | 'size' | 'sha256'>;

export function isMultipartRequest(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && /^multipart\/form-data\s*(;|$)/i.test(type);
}

export async function receivePhotoUpload(
  request: FastifyRequest,
  storage: PhotoStorage,
  pace: UploadPace,
): Promise<ReceivedPhoto> {
  const fields: Partial<Record<(typeof FIELDS)[number], string>> = {};
  let saved: SavedFile | null = null;
  const watch = watchPace(request, pace);
  try {
    for await (const part of request.parts({ limits: MULTIPART_LIMITS })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'photo') {
          part.file.resume();
          throw new Invalid(`Unexpected file field "${part.fieldname}": send the image as "photo"`, {
            [part.fieldname]: 'is not a known field',
          });
        }
        saved = await saveIncoming(part.file, storage);
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
    if (saved) await discardQuietly(saved.staged, request.log);
    throw uploadError(watch.cut ?? error);
  } finally {
    watch.stop();
  }
}

/**
 * 408, not 400: the request is not wrong, it did not arrive in time, and a client may well succeed
 * sending it again on a better connection; it is the status Node answers a slow request with, and
 * tells a client it may retry. The connection is closed, as what is left of the body is not wanted.
 */
function uploadTooSlow(message: string): AppError {
  return new AppError(408, 'upload_too_slow', message, undefined, { connection: 'close' });
}

function inWords(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds >= 120 && seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} seconds`;
}

/**
 * Bounds how slowly the body may arrive while it is received, in place of REQUEST_TIMEOUT_MS (30 s
 * would ask 1.4 Mbit/s of a 5 MB photo): at least `pace.minBytesPerSecond` over every
 * `pace.windowMs`, and the whole within `pace.maxMs`. Progress is the socket's bytes read, so any
 * part of the body counts. A body found too slow is stopped as the multipart parser stops one that
 * fails (its request's 'error'), so the file being written is removed and nothing is recorded.
 */
function watchPace(request: FastifyRequest, pace: UploadPace) {
  const socket = request.raw.socket;
  const release = exemptFromRequestTimeout(socket);
  const started = Date.now();
  // The oldest kept sample is the last one at or before the window's start.
  let samples = [{ at: started, bytes: socket.bytesRead }];
  const state: { cut: AppError | null; stop(): void } = {
    cut: null,
    stop() {
      clearInterval(timer);
      // After a cut, the 408 is still to be written: Node must not answer the request first.
      if (state.cut) socket.once('close', release);
      else release();
    },
  };
  const cut = (message: string) => {
    state.cut = uploadTooSlow(message);
    clearInterval(timer);
    if (request.raw.listenerCount('error') > 0) request.raw.emit('error', state.cut);
    else socket.destroy(state.cut);
  };
  const timer = setInterval(
    () => {
      const now = Date.now();
      const bytes = socket.bytesRead;
      if (now - started >= pace.maxMs) {
        cut(`The upload took longer than ${inWords(pace.maxMs)}. Please try again on a faster connection.`);
        return;
      }
      // Paused by this side (the file is written out slower than it arrives): not the client's doing.
      if (request.raw.readableFlowing === false) {
        samples = [{ at: now, bytes }];
        return;
      }
      samples.push({ at: now, bytes });
      while (samples.length > 1 && samples[1]!.at <= now - pace.windowMs) samples.shift();
      const since = samples[0]!;
      const elapsed = now - since.at;
      if (elapsed >= pace.windowMs && (bytes - since.bytes) * 1000 < pace.minBytesPerSecond * elapsed) {
        const rate = Math.round(pace.minBytesPerSecond / 102.4) / 10;
        cut(
          `The upload was too slow (less than ${rate} KB a second over ${inWords(pace.windowMs)}). ` +
            'Please try again on a faster connection.',
        );
      }
    },
    Math.max(50, Math.min(1000, Math.floor(pace.windowMs / 4))),
  );
  return state;
}

/** Streams one file part into storage, staged; discards it again if it is too large or not an image. */
async function saveIncoming(
  file: Readable & { truncated?: boolean },
  storage: PhotoStorage,
): Promise<SavedFile> {
  const staged = await storage.stage();
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
  try {
    await pipeline(file, inspect, staged.writable);
    // busboy stops at the limit and marks the part truncated; whatever arrived is not kept.
    if (file.truncated || size > MAX_PHOTO_BYTES) throw new PayloadTooLarge(FILE_TOO_LARGE);
    const type = detectImageType(head);
    if (!type) throw new UnsupportedMediaType(INVALID_FILE_TYPE);
    return { staged, type, size, sha256: hash.digest('hex') };
  } catch (error) {
    await discardQuietly(staged);
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
