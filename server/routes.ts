// Domain route modules, mounted under /api. Each is a plain (encapsulated) Fastify plugin.
import type { FastifyPluginAsync } from 'fastify';
import type { TargetPhotos } from './catalogue/commands.ts';
import type { ReaderLists } from './catalogue/details.ts';
import systemRoutes from './system/routes.ts';
import photosRoutes from './photos/routes.ts';
import catRoutes from './catalogue/cats.routes.ts';
import bodegaRoutes from './catalogue/bodegas.routes.ts';
import liveRoutes from './live/routes.ts';
import accountRoutes from './accounts/routes.ts';
import credentialRoutes from './accounts/credentials.routes.ts';
import listRoutes from './lists/routes.ts';
import mapRoutes from './map/routes.ts';
import geocodeRoutes from './catalogue/geocode.routes.ts';
import { forgetViews, recordView } from './lists/recently-viewed.ts';
import { deletePhotosOfTarget } from './photos/commands.ts';
import { isSaved } from './lists/saves.ts';
import reviewsRoutes from './reviews/routes.ts';
import searchRoutes from './search/routes.ts';
import moderationRoutes from './moderation/routes.ts';
import { personalData } from './personal-data.ts';

/** The catalogue shows a reader's saves and records their views through the lists domain. */
const readerLists: ReaderLists = { isSaved, recordView, forgetViews };
/** A cat's or bodega's deletion deletes its photos through the photos domain. */
const targetPhotos: TargetPhotos = { deleteAll: deletePhotosOfTarget };
const catalogue = { lists: readerLists, photos: targetPhotos };

export const apiRoutes: { prefix: string; plugin: FastifyPluginAsync }[] = [
  { prefix: '', plugin: systemRoutes },
  { prefix: '/photos', plugin: photosRoutes },
  { prefix: '/cats', plugin: async (app) => app.register(catRoutes, catalogue) },
  { prefix: '/bodegas', plugin: async (app) => app.register(bodegaRoutes, catalogue) },
  { prefix: '', plugin: liveRoutes },
  { prefix: '/auth', plugin: accountRoutes },
  { prefix: '/auth', plugin: async (app) => app.register(credentialRoutes, { personalData }) },
  { prefix: '', plugin: listRoutes },
  { prefix: '/reviews', plugin: reviewsRoutes },
  { prefix: '/search', plugin: searchRoutes },
  { prefix: '', plugin: mapRoutes },
  { prefix: '/geocode', plugin: geocodeRoutes },
  { prefix: '', plugin: moderationRoutes },
];
