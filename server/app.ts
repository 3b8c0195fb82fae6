// Builds the Fastify app: infrastructure plugins first, then the domain route modules.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import authPlugin from './plugins/auth.ts';
import { sessionStateOf } from './accounts/users.ts';
import { answerClientError } from './http/client-errors.ts';
import { frameworkErrors, registerErrorHandling } from './http/error-handler.ts';
import { validatorCompiler } from './http/validation.ts';
import { apiRoutes } from './routes.ts';
import photoFiles from './photos/serve.ts';
import shareRoutes from './share/routes.ts';
import { registerDocs } from './ops/docs.ts';
import { createMetrics } from './ops/metrics.ts';
import { registerOpsRoutes } from './ops/routes.ts';
import { registerLocalOperatorRoutes } from './ops/local-operator.ts';
import { registerSecurity } from './ops/security.ts';
import { createSearchCache, type SearchCache } from './search/cache.ts';
import { createReadPools } from './db/read-pools.ts';
import { LOG_POSITION_HEADER, registerReads } from './http/reads.ts';
import type { TrustProxy } from './config.ts';
import type { Services } from './services.ts';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    searchCache: SearchCache;
  }
}

export const CLIENT_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../client/dist');

export type AppOptions = {
  serveClient?: boolean;
  /** Embedded mode: serve the operator commands (POST /ops/*) to local callers with this token. */
  localOperatorToken?: string;
};

/**
 * Off unless configured: trusting any X-Forwarded-For lets a client choose its own address. Fastify
 * ignores a bare hop count (it cannot check the peer), so a count becomes "the nearest N hops",
 * which is right only when those proxies overwrite the header (ops/nginx.conf does).
 */
function trustProxyOption(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/**
 * A client gets REQUEST_TIMEOUT_MS to send a whole request, so a slow-loris (headers or a body
 * trickled a byte at a time) cannot hold a socket. Node checks its connections for that only every
 * `connectionsCheckingInterval` (30 s by default), so the check runs often enough to keep the bound.
 * A photo upload's body is bounded by its pace instead (UPLOAD_MIN_BYTES_PER_SECOND and
 * UPLOAD_MAX_SECONDS, photos/upload.ts); answerClientError lets it through this one.
 */
function requestTimeouts(requestTimeoutMs: number) {
  if (requestTimeoutMs <= 0) return {};
  return {
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: Math.min(60_000, requestTimeoutMs),
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(requestTimeoutMs / 4))),
    },
  };
}

export async function buildApp(services: Services, options: AppOptions = {}) {
  const { config } = services;
  const app = Fastify({
    ...requestTimeouts(config.requestTimeoutMs),
    loggerInstance: services.logger as FastifyBaseLogger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxyOption(config.trustProxy),
    forceCloseConnections: 'idle',
    frameworkErrors,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('services', services);
  app.decorate(
    'searchCache',
    createSearchCache(services.database, config.searchCacheEntries, config.searchCacheBytes),
  );
  registerReads(
    app as unknown as FastifyInstance,
    createReadPools(services.database, config.replicas, {
      statementTimeoutMs: config.statementTimeoutMs || null,
      log: (message, details) => services.logger.warn(details, message),
    }),
  );
  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandling(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
  });

  await app.register(cors, {
    origin: config.corsOrigins === '*' ? '*' : config.corsOrigins,
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'Cache-Control',
      'Pragma',
      'Idempotency-Key',
      'If-Match',
      LOG_POSITION_HEADER,
    ],
    exposedHeaders: ['ETag', 'Retry-After', 'X-Request-Id', LOG_POSITION_HEADER],
    credentials: false,
    maxAge: 600,
    // An OPTIONS without Origin is no browser preflight; answer it plainly rather than with a
    // text/plain 400 outside the error contract.
    strictPreflight: false,
  });
  await app.register(authPlugin, {
    secret: config.jwtSecret,
    lifetimeSeconds: config.tokenLifetimeSeconds,
    sessionStateOf: (userId) => sessionStateOf(services.database.db, userId),
  });
  await registerSecurity(app as unknown as FastifyInstance);
  if (config.apiDocs === 'public') await registerDocs(app as unknown as FastifyInstance);
  const metrics = createMetrics(app as unknown as FastifyInstance);

  await app.register(
    async (api) => {
      for (const { prefix, plugin } of apiRoutes) await api.register(plugin, { prefix });
    },
    { prefix: '/api' },
  );
  await app.register(photoFiles);
  await app.register(shareRoutes);
  await registerOpsRoutes(app as unknown as FastifyInstance, metrics);
  if (options.localOperatorToken)
    await registerLocalOperatorRoutes(app as unknown as FastifyInstance, options.localOperatorToken);

  if (options.serveClient !== false && fs.existsSync(path.join(CLIENT_DIST, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: CLIENT_DIST,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      setHeaders(reply, filePath) {
        reply.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }
  return app as unknown as FastifyInstance;
}
