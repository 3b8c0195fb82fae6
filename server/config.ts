// Runtime configuration, read once from the environment and validated with clear messages.
import { isIP } from 'node:net';
import path from 'node:path';
import { DATA_KEY_FILE_NAME, randomSecret, secretBesideData, SECRET_FILE_NAME } from './jwt-secret.ts';

/** Brute-force protection of sign-in (see server/accounts/login-limits.ts). */
export type LoginLimits = {
  /** How long a failure is remembered, and so the longest a limited client waits. */
  windowSeconds: number;
  /** Failed sign-ins on one account from one client address before backing off. */
  perAccount: number;
  /** Failed sign-ins per client address (across all accounts) before backing off. */
  perAddress: number;
  /**
   * Failed sign-ins with one sign-in name (an account's username, or its email) from every address
   * together before addresses not known for that name back off.
   */
  perName: number;
  /** How long an address a name signed in from stays known, and so exempt from `perName`. */
  knownAddressDays: number;
  /** The first wait once a limit is reached; it doubles with each further failure, up to the window. */
  backoffSeconds: number;
};

/** Tuning of the live stream (see server/live/). */
export type LiveSettings = {
  /** How often each socket is pinged; a socket that has not answered the last ping is closed. */
  heartbeatMs: number;
  /** A client whose unsent bytes exceed this cannot keep up and is disconnected. */
  maxBufferedBytes: number;
  /** How many log events `?after=` may replay; further behind gets `reset`. */
  replayLimit: number;
  /** Events the broadcaster reads per step. */
  batchSize: number;
  /** Safety-net poll of the log, besides NOTIFY. */
  pollMs: number;
  /** Open sockets one client address may hold; the next is refused with close code 1008. */
  maxConnectionsPerAddress: number;
  /** Resumes (`?after=`) one client address may make at once; further ones get 429... */
  resumeBurst: number;
  /** ...until the bucket refills at this many a minute. */
  resumesPerMinute: number;
};

/**
 * Which peers may tell the app the client's address in X-Forwarded-For: none (the socket's peer is
 * the client), the nearest N proxies, or proxies at these addresses/CIDRs. Anything else lets any
 * client pick its own address and so walk around every per-address limit.
 */
export type TrustProxy = false | number | string[];

export type Config = {
  env: 'production' | 'development' | 'test';
  port: number;
  host: string;
  databaseUrl: string | null;
  /** Read replicas of DATABASE_URL's server (see server/db/read-pools.ts); empty: every read on it. */
  replicas: ReplicaSettings;
  dataDir: string;
  /** Embedded mode: how long the storage thread may stop answering before it is restarted. */
  embeddedStorageDeadlineMs: number;
  redisUrl: string | null;
  /** JWT_SECRET; without it, outside production, see unsetSecret below. */
  jwtSecret: string;
  /**
   * DATA_KEY: the 32-byte master key that wraps every user's data key (server/events/personal.ts).
   * Required in production; see unsetDataKey for the others.
   */
  dataKey: Buffer;
  tokenLifetimeSeconds: number;
  uploadDir: string;
  /** Where photo originals and variants are kept (PHOTO_STORAGE): under uploadDir, or in `s3`. */
  photoStorage: 'local' | 's3';
  /** The bucket (S3_*): required with PHOTO_STORAGE=s3, read by `npm run storage` otherwise. */
  s3: S3Settings | null;
  /** A stored object no photo refers to is removed once it is this old (the reconciler's sweep). */
  orphanMinAgeHours: number;
  googleMapsApiKey: string | null;
  /** MapLibre style of the street map shown without a Google key; null (`none`) turns it off. */
  mapStyleUrl: string | null;
  geocoderApiKey: string | null;
  /** Who turns typed addresses into coordinates (see catalogue/geocoder.ts). */
  geocoder: 'google' | 'geosearch' | 'off';
  geosearchUrl: string;
  corsOrigins: string[] | '*';
  logLevel: string;
  publicBaseUrl: string | null;
  productName: string;
  nearbyRadiusKm: number;
  seedOnEmpty: boolean;
  operatorToken: string | null;
  /** Whether /api/docs (Swagger UI and the OpenAPI document) is served: API_DOCS=public|off. */
  apiDocs: 'public' | 'off';
  /** Bearer token /metrics asks for; without it /metrics is open in development, 404 in production. */
  metricsToken: string | null;
  trustProxy: TrustProxy;
  /** Writes (POST/PUT/DELETE under /api) allowed per client per minute; 0 turns the limit off. */
  writeRateLimitPerMinute: number;
  /** Search answers kept per api process (see server/search/cache.ts); 0 turns the cache off. */
  searchCacheEntries: number;
  /** Memory the search cache's answers may hold, in bytes (estimated). */
  searchCacheBytes: number;
  /** Different users with open reports on an item that hide it until a moderator decides. */
  reportsToHide: number;
  /**
   * Whose reports count toward reportsToHide, and how many one account may file a day
   * (server/moderation/reporters.ts). 0: any account age counts / no daily limit.
   */
  reports: { minAccountAgeHours: number; perDay: number };
  /** Photo uploads one user may make per minute and per day (server/photos/quota.ts); 0: no limit. */
  uploads: { perMinute: number; perDay: number };
  /**
   * How slowly a photo upload's body may arrive (server/photos/upload.ts), in place of
   * REQUEST_TIMEOUT_MS: at least `minBytesPerSecond` over every `windowMs`, all within `maxMs`.
   */
  uploadPace: UploadPace;
  /** Postgres cancels an api statement running longer than this (the request gets 503); 0: no limit. */
  statementTimeoutMs: number;
  /** Longest time a client may take to send a whole request (headers and body); 0: no limit. */
  requestTimeoutMs: number;
  login: LoginLimits;
  live: LiveSettings;
};

/** Streaming replicas that serve the public reads that may lag (Postgres mode only). */
export type ReplicaSettings = {
  /** DATABASE_REPLICA_URLS, comma-separated; none: every read goes to DATABASE_URL. */
  urls: string[];
  /** A replica further behind the primary than this leaves the rotation until it catches up. */
  maxLagMs: number;
  /**
   * How long a read that carries a log position (read-your-writes) waits for a replica to replay
   * it before the primary answers it instead; 0: such reads go to the primary at once.
   */
  waitMs: number;
};

export type UploadPace = { minBytesPerSecond: number; windowMs: number; maxMs: number };

/** An S3-compatible bucket for photos; credentials come from the SDK's own chain (AWS_* variables). */
export type S3Settings = {
  bucket: string;
  /** S3_ENDPOINT: the store's address; null for AWS S3 itself. */
  endpoint: string | null;
  region: string;
  /** S3_FORCE_PATH_STYLE: the bucket in the path (`<endpoint>/<bucket>/<key>`), as MinIO wants. */
  forcePathStyle: boolean;
  /** S3_PUBLIC_URL, without a trailing slash: where browsers fetch variants; null: from this server. */
  publicUrl: string | null;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

// Secrets that have been published (this one sat in the repository as the development default):
// tokens signed with them can be forged by anyone, so no environment may use them.
const PUBLISHED_SECRETS = new Set(['bodega-cats-development-secret-change-me']);
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** The key tests use: fixed, so data sealed by one test app opens in another on the same database. */
const TEST_DATA_KEY = Buffer.alloc(32, 7);

/** DATA_KEY as 64 hex digits or base64 of 32 bytes; null (with a problem noted) otherwise. */
function dataKeyOf(raw: string, problems: string[]): Buffer | null {
  const value = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length === 32) return key;
  problems.push('DATA_KEY must be 32 random bytes as 64 hex digits (e.g. `openssl rand -hex 32`)');
  return null;
}

/** API_DOCS: `public` (the default: the API is documented for its clients anyway) or `off`. */
function apiDocsOf(raw: string | undefined, problems: string[]): 'public' | 'off' {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'public') return 'public';
  if (value === 'off') return 'off';
  problems.push(`API_DOCS must be public or off (got "${raw}")`);
  return 'public';
}

/** positiveInt, or 0 where the setting is `0` (which turns its limit or feature off). */
function positiveIntOrOff(
  name: string,
  raw: string | undefined,
  fallback: number,
  problems: string[],
): number {
  return raw === '0' ? 0 : positiveInt(name, raw, fallback, problems);
}

function positiveInt(name: string, raw: string | undefined, fallback: number, problems: string[]): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) {
    problems.push(`${name} must be a positive whole number (got "${raw}")`);
    return fallback;
  }
  return n;
}

// proxy-addr's names for the private ranges, accepted as in Fastify's own trustProxy option.
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function proxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  if (!/^[0-9]{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

function trustProxy(raw: string | undefined, problems: string[]): TrustProxy {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (/^[0-9]+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) problems.push(`TRUST_PROXY hop count must be at most 10 (got "${raw}")`);
    return hops;
  }
  const entries = value.split(',').map((e) => e.trim());
  const bad = entries.filter((e) => !proxyAddress(e));
  if (value === 'true' || bad.length > 0)
    problems.push(
      `TRUST_PROXY must be off (unset or 0), a hop count such as 1, or comma-separated proxy ` +
        `addresses or CIDRs such as 10.0.0.0/8 (got "${raw}"; "true" would let any client forge its address)`,
    );
  return bad.length > 0 ? false : entries;
}

const GEOCODERS = ['google', 'geosearch', 'off'] as const;

/**
 * GEOCODER: Google when GEOCODER_API_KEY is set, else NYC's key-less GeoSearch; tests stay off
 * the network unless they ask.
 */
function geocoderOf(env: NodeJS.ProcessEnv, nodeEnv: string, problems: string[]): Config['geocoder'] {
  const raw = (env.GEOCODER ?? '').trim();
  const fallback = env.GEOCODER_API_KEY ? 'google' : nodeEnv === 'test' ? 'off' : 'geosearch';
  if (raw === '') return fallback;
  const chosen = GEOCODERS.find((g) => g === raw);
  if (!chosen) {
    problems.push(`GEOCODER must be one of ${GEOCODERS.join(', ')} (got "${raw}")`);
    return fallback;
  }
  if (chosen === 'google' && !env.GEOCODER_API_KEY) problems.push('GEOCODER=google needs GEOCODER_API_KEY');
  return chosen;
}

function url(name: string, raw: string | undefined, schemes: string[], problems: string[]): string | null {
  if (!raw) return null;
  try {
    const u = new URL(raw);
    if (!schemes.includes(u.protocol)) problems.push(`${name} must start with ${schemes.join(' or ')}//`);
  } catch {
    problems.push(`${name} is not a valid URL`);
  }
  return raw;
}

/** DATABASE_REPLICA_URLS and their bounds; replicas need DATABASE_URL (embedded mode has none). */
function replicasOf(env: NodeJS.ProcessEnv, problems: string[]): ReplicaSettings {
  const urls = (env.DATABASE_REPLICA_URLS ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  urls.forEach((u, i) =>
    url(`DATABASE_REPLICA_URLS (entry ${i + 1})`, u, ['postgres:', 'postgresql:'], problems),
  );
  if (urls.length > 0 && !env.DATABASE_URL)
    problems.push('DATABASE_REPLICA_URLS needs DATABASE_URL: replicas are read beside a Postgres primary');
  return {
    urls,
    maxLagMs: positiveInt('REPLICA_MAX_LAG_MS', env.REPLICA_MAX_LAG_MS, 5000, problems),
    waitMs: positiveIntOrOff('REPLICA_WAIT_MS', env.REPLICA_WAIT_MS, 200, problems),
  };
}

/** PHOTO_STORAGE: `local` (the default, under UPLOAD_DIR) or `s3` (S3_BUCKET and the rest). */
function photoStorageOf(raw: string | undefined, problems: string[]): Config['photoStorage'] {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'local') return 'local';
  if (value === 's3') return 's3';
  problems.push(`PHOTO_STORAGE must be local or s3 (got "${raw}")`);
  return 'local';
}

// S3's rule for bucket names (3 to 63 characters), which the other stores follow too.
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The S3_* settings: required with PHOTO_STORAGE=s3, read whenever S3_BUCKET is set. */
function s3Of(
  env: NodeJS.ProcessEnv,
  storage: Config['photoStorage'],
  problems: string[],
): S3Settings | null {
  const bucket = (env.S3_BUCKET ?? '').trim();
  if (!bucket) {
    if (storage === 's3') problems.push('S3_BUCKET is required when PHOTO_STORAGE=s3');
    return null;
  }
  if (!BUCKET_NAME.test(bucket))
    problems.push(
      `S3_BUCKET must be a bucket name: 3 to 63 lowercase letters, digits, dots or hyphens (got "${bucket}")`,
    );
  const region = (env.S3_REGION ?? '').trim() || 'us-east-1';
  if (!/^[a-z0-9-]{1,40}$/.test(region))
    problems.push(`S3_REGION must be a region name such as us-east-1 (got "${env.S3_REGION}")`);
  const pathStyle = (env.S3_FORCE_PATH_STYLE ?? '').trim().toLowerCase();
  if (!['', 'true', 'false'].includes(pathStyle))
    problems.push(`S3_FORCE_PATH_STYLE must be true or false (got "${env.S3_FORCE_PATH_STYLE}")`);
  const publicUrl = url('S3_PUBLIC_URL', env.S3_PUBLIC_URL?.trim(), ['http:', 'https:'], problems);
  if (publicUrl && URL.canParse(publicUrl)) {
    const u = new URL(publicUrl);
    if (u.search || u.hash) problems.push('S3_PUBLIC_URL must not have a query (?) or a fragment (#)');
  }
  return {
    bucket,
    endpoint: url('S3_ENDPOINT', env.S3_ENDPOINT?.trim(), ['http:', 'https:'], problems),
    region,
    forcePathStyle: pathStyle === 'true',
    publicUrl: publicUrl ? publicUrl.replace(/\/+$/, '') : null,
  };
}

/** A positive number of hours, fractions allowed (so tests can wait seconds, not a day). */
function positiveHours(name: string, raw: string | undefined, fallback: number, problems: string[]): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) {
    problems.push(`${name} must be a positive number of hours (got "${raw}")`);
    return fallback;
  }
  return n;
}

/** A key-less public style with OpenStreetMap data (attribution comes with the style). */
export const DEFAULT_MAP_STYLE_URL = 'https://tiles.openfreemap.org/styles/liberty';

function mapStyleUrl(raw: string | undefined, problems: string[]): string | null {
  const value = raw?.trim();
  if (value === 'none') return null;
  return url('MAP_STYLE_URL', value || DEFAULT_MAP_STYLE_URL, ['http:', 'https:'], problems);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const nodeEnv =
    env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'test' : 'development';
  const port = positiveIntOrOff('PORT', env.PORT, 3000, problems);
  if (port > 65535) problems.push('PORT must be at most 65535');

  const jwtSecret = env.JWT_SECRET ?? '';
  if (PUBLISHED_SECRETS.has(jwtSecret))
    problems.push(
      'JWT_SECRET is a published secret: use at least 32 random characters (e.g. `openssl rand -hex 32`)',
    );
  else if (nodeEnv === 'production') {
    if (!jwtSecret) problems.push('JWT_SECRET is required when NODE_ENV=production');
    else if (jwtSecret.length < 32 || new Set(jwtSecret).size < 8)
      problems.push(
        'JWT_SECRET is too weak: use at least 32 random characters (e.g. `openssl rand -hex 32`)',
      );
  }

  const dataKey = env.DATA_KEY ? dataKeyOf(env.DATA_KEY, problems) : null;
  if (!env.DATA_KEY && nodeEnv === 'production')
    problems.push(
      'DATA_KEY is required when NODE_ENV=production: it protects personal data in the event log ' +
        '(e.g. `openssl rand -hex 32`; keep it safe, data sealed under a lost key cannot be read)',
    );

  const logLevel = env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info');
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const cors = (env.CORS_ORIGINS ?? '*').trim();
  const photoStorage = photoStorageOf(env.PHOTO_STORAGE, problems);
  const config: Config = {
    env: nodeEnv,
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: url('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:'], problems),
    replicas: replicasOf(env, problems),
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    embeddedStorageDeadlineMs: positiveInt(
      'EMBEDDED_STORAGE_DEADLINE_MS',
      env.EMBEDDED_STORAGE_DEADLINE_MS,
      10_000,
      problems,
    ),
    redisUrl: url('REDIS_URL', env.REDIS_URL, ['redis:', 'rediss:'], problems),
    jwtSecret,
    dataKey: dataKey ?? Buffer.alloc(0),
    tokenLifetimeSeconds: positiveInt(
      'TOKEN_LIFETIME_SECONDS',
      env.TOKEN_LIFETIME_SECONDS,
      7 * 24 * 3600,
      problems,
    ),
    uploadDir: path.resolve(env.UPLOAD_DIR ?? 'uploads'),
    photoStorage,
    s3: s3Of(env, photoStorage, problems),
    orphanMinAgeHours: positiveHours('ORPHAN_MIN_AGE_HOURS', env.ORPHAN_MIN_AGE_HOURS, 24, problems),
    googleMapsApiKey: env.GOOGLE_MAPS_API_KEY || null,
    mapStyleUrl: mapStyleUrl(env.MAP_STYLE_URL, problems),
    geocoderApiKey: env.GEOCODER_API_KEY || null,
    geocoder: geocoderOf(env, nodeEnv, problems),
    geosearchUrl:
      url('GEOSEARCH_URL', env.GEOSEARCH_URL, ['http:', 'https:'], problems) ??
      'https://geosearch.planninglabs.nyc/v2/search',
    corsOrigins: cors === '*' || cors === '' ? '*' : cors.split(',').map((o) => o.trim()),
    logLevel,
    publicBaseUrl: url('PUBLIC_BASE_URL', env.PUBLIC_BASE_URL, ['http:', 'https:'], problems),
    productName: 'Bodega Cats',
    nearbyRadiusKm: 10,
    seedOnEmpty: env.SEED_ON_EMPTY ? env.SEED_ON_EMPTY === 'true' : !env.DATABASE_URL && nodeEnv !== 'test',
    operatorToken: env.OPERATOR_TOKEN || null,
    metricsToken: env.METRICS_TOKEN || null,
    apiDocs: apiDocsOf(env.API_DOCS, problems),
    trustProxy: trustProxy(env.TRUST_PROXY, problems),
    writeRateLimitPerMinute: positiveIntOrOff('WRITE_RATE_LIMIT', env.WRITE_RATE_LIMIT, 120, problems),
    searchCacheEntries: positiveIntOrOff('SEARCH_CACHE_ENTRIES', env.SEARCH_CACHE_ENTRIES, 2000, problems),
    searchCacheBytes: positiveInt('SEARCH_CACHE_MB', env.SEARCH_CACHE_MB, 64, problems) * 1024 * 1024,
    reportsToHide: positiveInt('REPORTS_TO_HIDE', env.REPORTS_TO_HIDE, 3, problems),
    reports: {
      minAccountAgeHours: positiveIntOrOff(
        'REPORTER_MIN_ACCOUNT_AGE_HOURS',
        env.REPORTER_MIN_ACCOUNT_AGE_HOURS,
        72,
        problems,
      ),
      perDay: positiveIntOrOff('REPORTS_PER_DAY', env.REPORTS_PER_DAY, 20, problems),
    },
    uploadPace: {
      minBytesPerSecond: positiveInt(
        'UPLOAD_MIN_BYTES_PER_SECOND',
        env.UPLOAD_MIN_BYTES_PER_SECOND,
        4096,
        problems,
      ),
      windowMs:
        positiveInt('UPLOAD_RATE_WINDOW_SECONDS', env.UPLOAD_RATE_WINDOW_SECONDS, 15, problems) * 1000,
      maxMs: positiveInt('UPLOAD_MAX_SECONDS', env.UPLOAD_MAX_SECONDS, 300, problems) * 1000,
    },
    uploads: {
      perMinute: positiveIntOrOff('UPLOADS_PER_MINUTE', env.UPLOADS_PER_MINUTE, 10, problems),
      perDay: positiveIntOrOff('UPLOADS_PER_DAY', env.UPLOADS_PER_DAY, 100, problems),
    },
    statementTimeoutMs: positiveIntOrOff('STATEMENT_TIMEOUT_MS', env.STATEMENT_TIMEOUT_MS, 15_000, problems),
    requestTimeoutMs: positiveIntOrOff('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, 30_000, problems),
    login: {
      windowSeconds: positiveInt(
        'LOGIN_LIMIT_WINDOW_SECONDS',
        env.LOGIN_LIMIT_WINDOW_SECONDS,
        15 * 60,
        problems,
      ),
      perAccount: positiveInt('LOGIN_LIMIT_PER_ACCOUNT', env.LOGIN_LIMIT_PER_ACCOUNT, 5, problems),
      perAddress: positiveInt('LOGIN_LIMIT_PER_ADDRESS', env.LOGIN_LIMIT_PER_ADDRESS, 30, problems),
      perName: positiveInt('LOGIN_LIMIT_PER_NAME', env.LOGIN_LIMIT_PER_NAME, 10, problems),
      knownAddressDays: positiveInt('LOGIN_KNOWN_ADDRESS_DAYS', env.LOGIN_KNOWN_ADDRESS_DAYS, 30, problems),
      backoffSeconds: positiveInt('LOGIN_BACKOFF_SECONDS', env.LOGIN_BACKOFF_SECONDS, 15, problems),
    },
    live: {
      heartbeatMs: positiveInt('LIVE_HEARTBEAT_MS', env.LIVE_HEARTBEAT_MS, 30_000, problems),
      maxBufferedBytes: positiveInt(
        'LIVE_MAX_BUFFERED_BYTES',
        env.LIVE_MAX_BUFFERED_BYTES,
        1024 * 1024,
        problems,
      ),
      replayLimit: positiveInt('LIVE_REPLAY_LIMIT', env.LIVE_REPLAY_LIMIT, 1000, problems),
      batchSize: positiveInt('LIVE_BATCH_SIZE', env.LIVE_BATCH_SIZE, 500, problems),
      pollMs: positiveInt('LIVE_POLL_MS', env.LIVE_POLL_MS, 1000, problems),
      maxConnectionsPerAddress: positiveInt(
        'LIVE_MAX_CONNECTIONS_PER_ADDRESS',
        env.LIVE_MAX_CONNECTIONS_PER_ADDRESS,
        20,
        problems,
      ),
      resumeBurst: positiveInt('LIVE_RESUME_BURST', env.LIVE_RESUME_BURST, 20, problems),
      resumesPerMinute: positiveInt('LIVE_RESUMES_PER_MINUTE', env.LIVE_RESUMES_PER_MINUTE, 60, problems),
    },
  };
  if (nodeEnv === 'production' && config.operatorToken && config.operatorToken.length < 16)
    problems.push('OPERATOR_TOKEN must be at least 16 characters');
  if (nodeEnv === 'production' && config.metricsToken && config.metricsToken.length < 16)
    problems.push('METRICS_TOKEN must be at least 16 characters');
  if (problems.length > 0) throw new ConfigError(problems);
  if (!config.jwtSecret) config.jwtSecret = unsetSecret(config);
  if (config.dataKey.length === 0) config.dataKey = unsetDataKey(config);
  return config;
}

/**
 * Without DATA_KEY (development and tests only): tests use a fixed key; a development install keeps
 * a random one beside its data, like its token secret.
 */
function unsetDataKey(config: Config): Buffer {
  if (config.env === 'test') return TEST_DATA_KEY;
  try {
    return Buffer.from(secretBesideData(config.dataDir, DATA_KEY_FILE_NAME), 'hex');
  } catch (error) {
    throw new ConfigError([
      `DATA_KEY is not set and no key could be kept in ${path.join(config.dataDir, DATA_KEY_FILE_NAME)} ` +
        `(${(error as Error).message}): set DATA_KEY or DATA_DIR to a writable directory`,
    ]);
  }
}

/**
 * Without JWT_SECRET (development and tests only): tests get a random secret that lives as long
 * as the process; a development install keeps one in its data directory (server/jwt-secret.ts).
 */
function unsetSecret(config: Config): string {
  if (config.env === 'test') return randomSecret();
  try {
    return secretBesideData(config.dataDir);
  } catch (error) {
    throw new ConfigError([
      `JWT_SECRET is not set and no secret could be kept in ${path.join(config.dataDir, SECRET_FILE_NAME)} ` +
        `(${(error as Error).message}): set JWT_SECRET or DATA_DIR to a writable directory`,
    ]);
  }
}
