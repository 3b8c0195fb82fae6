// What an api process's uploads leave on its host when the process is killed while receiving one:
// an upload being received is a file on this host (the S3 storage's temporary folder, or incoming/
// under UPLOAD_DIR) until it is kept or discarded, and a process that is killed (SIGKILL, a crash,
// the host going down) does neither. The worker's sweep (reconcile.ts) removes what is left in the
// bucket and on the worker's own disk, but an api host's temporary folder is seen only by the
// processes on it, so each api process removes what is left in its own: once as it starts (a
// restarted process clears up after the one it replaces) and then every few minutes. Only what is
// older than ORPHAN_MIN_AGE_HOURS goes, so an upload another process on the host is receiving, or
// one whose photo is being recorded, is never touched.
import type { PhotoStorage } from './storage.ts';

export type AbandonedUploadsCleanup = { stop(): Promise<void> };

export type AbandonedUploadsOptions = {
  /** What was last written this long ago is abandoned (ORPHAN_MIN_AGE_HOURS). */
  minAgeHours: number;
  /** How often it looks again after the first run (default 5 minutes, as the worker's sweep). */
  everyMs?: number;
  /** Files and staged objects a run removes at most. */
  limit?: number;
  logger: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
};

export function cleanAbandonedUploads(
  storage: PhotoStorage,
  options: AbandonedUploadsOptions,
): AbandonedUploadsCleanup {
  const { logger } = options;
  let running: Promise<void> | null = null;
  const run = () =>
    (running ??= (async () => {
      try {
        const olderThan = new Date(Date.now() - options.minAgeHours * 3_600_000);
        const removed = await storage.removeAbandoned({ olderThan, limit: options.limit ?? 500 });
        if (removed > 0) logger.info({ removed, olderThan }, 'removed uploads a stopped process left');
      } catch (error) {
        // The store may be down for a while; what is left waits for the next run.
        logger.warn({ err: error }, 'could not remove uploads a stopped process left; will try again');
      } finally {
        running = null;
      }
    })());
  void run();
  const timer = setInterval(() => void run(), options.everyMs ?? 5 * 60_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
