// Where photo objects are kept: originals (private, until the photos job has made the variants)
// and the public variants /uploads serves. The app speaks to it in keys and streams only, so a
// backend may keep objects on a disk (local-storage.ts, under UPLOAD_DIR) or in an S3-compatible
// bucket (s3-storage.ts), chosen by PHOTO_STORAGE.
import type { Readable, Writable } from 'node:stream';
import { Unavailable } from '../errors.ts';

/**
 * An object's name: segments of letters, digits, '.', '_' and '-' joined by '/', none of them
 * empty, '.' or '..' (`originals/3f9a.jpg`, `cats/3f9a_large.webp`). A backend refuses any other.
 */
export type ObjectKey = string;

const SEGMENT = /^[A-Za-z0-9._-]{1,200}$/;

export function isObjectKey(key: string): key is ObjectKey {
  const segments = key.split('/');
  return segments.length <= 8 && segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..');
}

/** A stored object read for serving: its bytes as a stream, its size and when it was written. */
export type StoredObject = { body: Readable; size: number; modifiedAt: Date };

/**
 * An object being received before its key is known (an upload, until its photo is recorded).
 * `writable` takes the bytes; once they are all written, `keep` stores them under a key, whole.
 * `discard` drops them: safe at any time, and a no-op once kept or discarded.
 */
export type StagedObject = {
  readonly writable: Writable;
  keep(key: ObjectKey): Promise<void>;
  discard(): Promise<void>;
};

export interface PhotoStorage {
  /** Starts receiving an object whose key comes later (see StagedObject). */
  stage(): Promise<StagedObject>;
  /**
   * Stores `body` under `key`, replacing what was there. Readers see the old object or the whole
   * new one, never part of it; a body that fails part way stores nothing.
   */
  put(key: ObjectKey, body: Buffer | Readable): Promise<void>;
  /** The object's bytes, or null when there is no such object. */
  get(key: ObjectKey): Promise<Buffer | null>;
  /** The object as a stream with its size, or null when there is no such object. */
  open(key: ObjectKey): Promise<StoredObject | null>;
  /** Deletes the object; deleting one that is not there is not an error. */
  delete(key: ObjectKey): Promise<void>;
  /**
   * The keys of stored objects under `prefix` last written before `olderThan`, in ascending byte
   * order, starting after the key `after` when given (staged ones are not stored yet).
   */
  list(options: { prefix?: string; olderThan: Date; after?: ObjectKey }): AsyncIterable<ObjectKey>;
  /**
   * Removes what uploads that never ended left behind (a process stopped between receiving a file
   * and keeping or discarding it): staged objects begun before `olderThan`, at most `limit` of
   * them. Answers how many it removed.
   */
  removeAbandoned(options: { olderThan: Date; limit: number }): Promise<number>;
  /** Lets go of connections; the storage is not used afterwards. */
  close(): Promise<void>;
}

/** The storage cannot be reached (or answers that it is failing): a 503, and a job tries again. */
export class PhotoStorageUnavailable extends Unavailable {
  constructor(cause: unknown) {
    super('Photo storage cannot be reached right now, so nothing was saved. Please try again shortly.');
    this.cause = cause;
  }
}

/** A key the app did not make (from a request, or a recorded event that was tampered with). */
export class InvalidObjectKey extends Error {
  override name = 'InvalidObjectKey';
  constructor(key: string) {
    super(`not an object key: ${JSON.stringify(key.slice(0, 300))}`);
  }
}
