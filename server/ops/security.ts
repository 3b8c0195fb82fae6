// Security headers, and a rate limit on writes shared by every api instance (Redis when
// configured; per process in embedded mode, which is a single process anyway).
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { RateLimited } from '../errors.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE']);

export async function registerSecurity(app: FastifyInstance): Promise<void> {
  const { config } = app.services;
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://maps.googleapis.com', 'https://maps.gstatic.com'],
        styleSrc: ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com'],
        imgSrc: [
          "'self'",
          'data:',
          'blob:',
          'https://maps.googleapis.com',
          'https://maps.gstatic.com',
          'https://*.ggpht.com',
        ],
        connectSrc: ["'self'", 'ws:', 'wss:', 'https://maps.googleapis.com'],
        fontSrc: ["'self'", 'https://fonts.gstatic.com'],
        workerSrc: ["'self'", 'blob:'],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
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
  app.addHook('preHandler', async (request, reply) => {
    if (WRITE_METHODS.has(request.method) && request.url.startsWith('/api/'))
      await limiter.call(app, request, reply);
  });
}
