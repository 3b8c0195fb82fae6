// Operator surface: Prometheus metrics at /metrics, and the queue dashboard (Bull Board with
// BullMQ, a JSON view in embedded mode) behind the operator token.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import type { Config } from '../config.ts';
import { NotFound, Unauthorized } from '../errors.ts';

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Accepts `Authorization: Bearer <token>` or HTTP Basic with the token as password (browsers). */
export function operatorGuard(token: string | null) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!token) throw new NotFound('The operator dashboard is off: set OPERATOR_TOKEN to turn it on');
    const header = request.headers.authorization ?? '';
    const bearer = /^Bearer (.+)$/i.exec(header)?.[1];
    const basic = /^Basic (.+)$/i.exec(header)?.[1];
    const password = basic
      ? Buffer.from(basic, 'base64').toString().split(':').slice(1).join(':')
      : undefined;
    const given = bearer ?? password;
    if (given && sameSecret(given, token)) return;
    reply.header('www-authenticate', 'Basic realm="Bodega Cats operators"');
    throw new Unauthorized('Operator credentials required');
  };
}

/**
 * /metrics (API.md, Operations endpoints): with METRICS_TOKEN set, only `Authorization: Bearer
 * <token>` gets in; without one it is open in development and absent (404) in production, where
 * an open scrape endpoint would show traffic to anyone and run counting queries on demand.
 */
export function metricsGuard(token: string | null, env: Config['env']) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!token) {
      if (env === 'production') throw new NotFound(`No route for GET ${request.url.split('?')[0]}`);
      return;
    }
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (given && sameSecret(given, token)) return;
    reply.header('www-authenticate', 'Bearer realm="metrics"');
    throw new Unauthorized('A metrics token is required: send Authorization: Bearer <METRICS_TOKEN>');
  };
}

export async function registerOpsRoutes(app: FastifyInstance, registry: Registry): Promise<void> {
  const { config, queue } = app.services;
  const metricsAccess = { onRequest: metricsGuard(config.metricsToken, config.env), schema: { hide: true } };
  app.get('/metrics', metricsAccess, async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });

  const guard = operatorGuard(config.operatorToken);
  app.get('/api/admin/queues', { preHandler: guard, schema: { hide: true } }, async () => ({
    kind: queue.kind,
    queues: await queue.counts(),
  }));

  const bullQueues = queue.bullQueues?.();
  if (bullQueues && config.operatorToken) {
    const { createBullBoard } = await import('@bull-board/api');
    const { BullMQAdapter } = await import('@bull-board/api/bullMQAdapter');
    const { FastifyAdapter } = await import('@bull-board/fastify');
    const serverAdapter = new FastifyAdapter();
    createBullBoard({
      queues: bullQueues.map((q) => new BullMQAdapter(q, { readOnlyMode: false })),
      serverAdapter,
    });
    serverAdapter.setBasePath('/admin/queues');
    await app.register(async (scope) => {
      scope.addHook('onRequest', guard);
      await scope.register(serverAdapter.registerPlugin() as never, { prefix: '/admin/queues' });
    });
  }
}
