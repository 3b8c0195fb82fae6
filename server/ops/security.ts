// Security headers, and a rate limit on writes shared by every api instance (Redis when
// configured; per process in embedded mode, which is a single process anyway).
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { RateLimited } from '../errors.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE']);

type Config = FastifyInstance['services']['config'];

/** Google Maps' hosts of one kind, allowed only when a maps key is configured. */
function googleMaps(config: Config, hosts: string[]): string[] {
  return config.googleMapsApiKey ? hosts : [];
}

/** The street map style's origin (its tiles, glyphs and sprites come from there), when there is one. */
export function mapStyleOrigin(config: Config): string[] {
  return config.mapStyleUrl ? [new URL(config.mapStyleUrl).origin] : [];
}

/** Where photos are fetched from when that is not this server (S3_PUBLIC_URL with PHOTO_STORAGE=s3). */
export function photoOrigin(config: Config): string[] {
  return config.photoStorage === 's3' && config.s3?.publicUrl ? [new URL(config.s3.publicUrl).origin] : [];
}

/**
 * Where the page may connect: its own origin ('self' covers its WebSocket too), the public
 * address's WebSocket origin when one is configured (for browsers that do not map 'self' to ws:),
 * the street map style's origin, and Google Maps only when a key is configured. Never any host at
 * all (`ws:`, `wss:`).
 */
export function connectSources(config: Config): string[] {
  const sources = ["'self'"];
  if (config.publicBaseUrl) {
    const url = new URL(config.publicBaseUrl);
    sources.push(`${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`);
  }
  return [...sources, ...mapStyleOrigin(config), ...googleMaps(config, ['https://maps.googleapis.com'])];
}

/**
 * Stylesheets: the app's own files only. Its toasts and components carry no inline <style> and no
 * style="" markup (styles set from script through element.style are not inline sources), so no
 * 'unsafe-inline'. Google's map script inserts <style> elements it can only mark with a nonce taken
 * from the page's HTML, which is served as a static file: with a maps key configured, inline styles
 * and Google's font stylesheet are allowed for it.
 */
export function styleSources(config: Config): string[] {
  return ["'self'", ...googleMaps(config, ["'unsafe-inline'", 'https://fonts.googleapis.com'])];
}

/**
 * Helmet's headers for these options, worked out once: none of them depends on the request.
 * (Fastify's helmet plugin builds helmet's whole middleware, parsing the policy's directives, for
 * every request: in alternating runs of the whole city's /api/map answers at 32 connections, the
 * api spent 0.94-1.23 ms of CPU a request with the plugin and 0.79-0.97 ms without.)
 */
function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let done = false;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    done = true;
  });
  if (!done) throw new Error('helmet did not finish setting its headers synchronously');
  return headers;
}

export async function registerSecurity(app: FastifyInstance): Promise<void> {
  const { config } = app.services;
  const headers = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [
          "'self'",
          ...googleMaps(config, ['https://maps.googleapis.com', 'https://maps.gstatic.com']),
        ],
        styleSrc: styleSources(config),
        imgSrc: [
          "'self'",
          'data:',
          'blob:',
          ...photoOrigin(config),
          ...mapStyleOrigin(config),
          ...googleMaps(config, [
            'https://maps.googleapis.com',
            'https://maps.gstatic.com',
            'https://*.ggpht.com',
          ]),
        ],
        connectSrc: connectSources(config),
        fontSrc: ["'self'", ...googleMaps(config, ['https://fonts.gstatic.com'])],
        // MapLibre runs its tile parsing in a worker it creates from a blob.
        workerSrc: ["'self'", 'blob:'],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
  // HSTS means something only over HTTPS (browsers ignore it on plain HTTP, RFC 6797 section 8.1),
  // and sent there it tells whoever reads the plain answers that this host is also served over
  // HTTPS: it goes only on requests that came over HTTPS, directly or through a trusted proxy
  // (request.protocol reads X-Forwarded-Proto only from proxies TRUST_PROXY names).
  const { 'strict-transport-security': hsts, ...everywhere } = headers;
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(everywhere);
    if (hsts && request.protocol === 'https') reply.header('strict-transport-security', hsts);
    done();
  });

  if (config.writeRateLimitPerMinute === 0) return;
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        connectTimeout: 2000,
        // A Redis that stops answering must not hold writes: the limiter gives up and lets them by.
        commandTimeout: 1000,
      })
    : null;
  redis?.on('error', () => {});
  if (redis) app.addHook('onClose', async () => redis.disconnect());
  await app.register(rateLimit, {
    global: false,
    redis: redis ?? undefined,
    nameSpace: 'bodega-write-limit-',
    skipOnError: true,
  });
  const limiter = app.rateLimit({
    max: config.writeRateLimitPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => (request.currentUser ? `user:${request.currentUser.id}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new RateLimited(
        `Too many changes in a short time. Please wait ${seconds} seconds and try again.`,
        seconds,
      );
    },
  });
  // The shared limiter lets writes by when Redis cannot answer (a write is worth more than a
  // limit). Sign-ins and sign-ups must not go unlimited then: a limit kept in this process, with
  // the same budget per address, applies to them whatever Redis does.
  const authLimit = localWindowLimit(config.writeRateLimitPerMinute, 60_000);
  app.addHook('onClose', async () => authLimit.stop());
  app.addHook('preHandler', async (request, reply) => {
    if (!WRITE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
    if (request.url.startsWith('/api/auth/')) {
      const wait = authLimit.hit(`ip:${request.ip}`);
      if (wait > 0)
        throw new RateLimited(
          `Too many changes in a short time. Please wait ${wait} seconds and try again.`,
          wait,
        );
    }
    await limiter.call(app, request, reply);
  });
}

/** A fixed-window counter per key in this process; hit() returns the seconds to wait, or 0. */
function localWindowLimit(max: number, windowMs: number) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
  }, windowMs);
  sweep.unref();
  return {
    hit(key: string): number {
      const now = Date.now();
      let w = windows.get(key);
      if (!w || w.resetAt <= now) {
        w = { count: 0, resetAt: now + windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return w.count > max ? Math.max(1, Math.ceil((w.resetAt - now) / 1000)) : 0;
    },
    stop: () => clearInterval(sweep),
  };
}
