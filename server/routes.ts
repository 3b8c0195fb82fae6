// Domain route modules, mounted under /api. Each is a plain (encapsulated) Fastify plugin.
import type { FastifyPluginAsync } from 'fastify';
import systemRoutes from './system/routes.ts';
import photosRoutes from './photos/routes.ts';
import catRoutes from './catalogue/cats.routes.ts';
import bodegaRoutes from './catalogue/bodegas.routes.ts';
import liveRoutes from './live/routes.ts';
import accountRoutes from './accounts/routes.ts';
import listRoutes from './lists/routes.ts';
import reviewsRoutes from './reviews/routes.ts';
import searchRoutes from './search/routes.ts';

export const apiRoutes: { prefix: string; plugin: FastifyPluginAsync }[] = [
  { prefix: '', plugin: systemRoutes },
  { prefix: '/photos', plugin: photosRoutes },
  { prefix: '/cats', plugin: catRoutes },
  { prefix: '/bodegas', plugin: bodegaRoutes },
  { prefix: '', plugin: liveRoutes },
  { prefix: '/auth', plugin: accountRoutes },
  { prefix: '', plugin: listRoutes },
  { prefix: '/reviews', plugin: reviewsRoutes },
  { prefix: '/search', plugin: searchRoutes },
];
