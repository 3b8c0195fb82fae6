// Resumes of the live stream per client address, as a token bucket: `burst` at once, then
// `perMinute` more a minute. A resume replays up to the replay limit of frames, so a client
// reconnecting in a loop would otherwise cost a core and megabytes a second; a real client
// resumes after a dropped connection, a few times an hour.
export type ResumeLimit = {
  /** Takes a resume from `address`: 0 if allowed, else the whole seconds until one is. */
  take(address: string, now?: number): number;
  /** Forgets the addresses whose bucket is full again (as good as never seen). */
  prune(now?: number): void;
};

export function createResumeLimit(options: { burst: number; perMinute: number }): ResumeLimit {
  const { burst } = options;
  const perMs = options.perMinute / 60_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  const level = (bucket: { tokens: number; at: number }, now: number) =>
    Math.min(burst, bucket.tokens + (now - bucket.at) * perMs);

  return {
    take(address, now = Date.now()) {
      const bucket = buckets.get(address);
      const tokens = bucket ? level(bucket, now) : burst;
      if (tokens >= 1) {
        buckets.set(address, { tokens: tokens - 1, at: now });
        return 0;
      }
      return Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
    },
    prune(now = Date.now()) {
      for (const [address, bucket] of buckets) if (level(bucket, now) >= burst) buckets.delete(address);
    },
  };
}
