// Health, readiness and the runtime settings the client needs.
import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ErrorBody } from '../../contract/common.ts';
import { RuntimeConfig } from '../../contract/system.ts';

const systemRoutes: FastifyPluginAsync = async (app) => {
  const { database, queue, config } = app.services;

  app.get(
    '/health',
    { schema: { response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({
      status: 'ok' as const,
    }),
  );

  app.get(
    '/ready',
    {
      schema: {
        response: {
          200: Type.Object({ status: Type.Literal('ready'), database: Type.String(), queue: Type.String() }),
          503: ErrorBody,
        },
      },
    },
    async (_request, reply) => {
      const problems: Record<string, string> = {};
      await withTimeout(database.ping(), 2000).catch(() => (problems.database = 'not answering'));
      await withTimeout(queue.ping(), 2000).catch(() => (problems.redis = 'not answering'));
      if (Object.keys(problems).length > 0) {
        return reply
          .status(503)
          .send({ error: 'Not ready: a dependency is down', code: 'unavailable', details: problems });
      }
      return { status: 'ready' as const, database: database.kind, queue: queue.kind };
    },
  );

  app.get(
    '/config',
    {
      schema: {
        response: { 200: RuntimeConfig },
      },
    },
    async () => ({
      product_name: config.productName,
      google_maps_api_key: config.googleMapsApiKey,
      map_style_url: config.mapStyleUrl,
      nearby_radius_km: config.nearbyRadiusKm,
    }),
  );
};

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms);
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}

export default systemRoutes;
