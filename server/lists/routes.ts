// The signed-in user's own lists: saving cats and bodegas, the saved lists and recently viewed.
// Mounted with an empty prefix, so paths are spelled out in full (/cats/:id/save, /users/...).
import { BodegaSummary, CatSummary } from '../../contract/catalogue.ts';
import { Pagination } from '../../contract/common.ts';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TargetType } from '../db/schema.ts';
import { signedInUser } from '../plugins/auth.ts';
import { runCommand } from '../http/idempotency.ts';
import { errors, PageQuery, pagination, pathTarget } from '../http/schemas.ts';
import { clearRecentlyViewed, listRecentlyViewed } from './recently-viewed.ts';
import { listSavedBodegas, listSavedCats, setSaved } from './saves.ts';

const TargetParams = Type.Object({ id: Type.String({ maxLength: 40 }) });
const SaveResult = Type.Object({ saved: Type.Boolean() });
const Query = Type.Object(PageQuery);
type PageParams = { page?: number; per_page?: number };

const SavedCat = Type.Object({ ...CatSummary.properties, saved_at: Type.String() });
const SavedBodega = Type.Object({ ...BodegaSummary.properties, saved_at: Type.String() });
const ViewedItem = Type.Object({
  type: Type.Union([Type.Literal('cat'), Type.Literal('bodega')]),
  id: Type.Integer(),
  name: Type.String(),
  bodega_name: Type.Optional(Type.String()),
  address: Type.String(),
  description: Type.String(),
  rating: Type.Number(),
  review_count: Type.Integer(),
  primary_photo: Type.Union([Type.String(), Type.Null()]),
  primary_thumb: Type.Union([Type.String(), Type.Null()]),
  viewed_at: Type.String(),
});

const TARGETS: { path: string; type: TargetType }[] = [
  { path: '/cats/:id/save', type: 'cat' },
  { path: '/bodegas/:id/save', type: 'bodega' },
];

function pageOf(query: PageParams) {
  return { page: query.page ?? 1, perPage: query.per_page ?? 20 };
}

const listRoutes: FastifyPluginAsync = async (app) => {
  const { database, store } = app.services;
  const { db } = database;
  const signedIn = { preHandler: app.requireUser };

  for (const { path, type } of TARGETS) {
    for (const saved of [true, false]) {
      app.route<{ Params: { id: string } }>({
        method: saved ? 'POST' : 'DELETE',
        url: path,
        ...signedIn,
        schema: { params: TargetParams, response: { 200: SaveResult, ...errors(401, 404, 409, 503) } },
        handler: async (request, reply) => {
          const { id } = pathTarget(type, request.params.id);
          const user = signedInUser(request);
          const metadata = { actor_id: user.id, request_id: request.id };
          return runCommand(db, request, reply, async (trx) => {
            await setSaved(trx, store, { userId: user.id, type, targetId: id, metadata }, saved);
            return { status: 200, body: { saved } };
          });
        },
      });
    }
  }

  app.get<{ Querystring: PageParams }>(
    '/users/savedcats',
    {
      ...signedIn,
      schema: {
        querystring: Query,
        response: {
          200: Type.Object({ saved_cats: Type.Array(SavedCat), pagination: Pagination }),
          ...errors(400, 401),
        },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listSavedCats(db, signedInUser(request).id, page);
      return { saved_cats: items, pagination: pagination(total, page.page, page.perPage) };
    },
  );

  app.get<{ Querystring: PageParams }>(
    '/users/savedbodegas',
    {
      ...signedIn,
      schema: {
        querystring: Query,
        response: {
          200: Type.Object({ saved_bodegas: Type.Array(SavedBodega), pagination: Pagination }),
          ...errors(400, 401),
        },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listSavedBodegas(db, signedInUser(request).id, page);
      return { saved_bodegas: items, pagination: pagination(total, page.page, page.perPage) };
    },
  );

  app.get<{ Querystring: PageParams }>(
    '/users/recently-viewed',
    {
      ...signedIn,
      schema: {
        querystring: Query,
        response: {
          200: Type.Object({ recently_viewed: Type.Array(ViewedItem), pagination: Pagination }),
          ...errors(400, 401),
        },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listRecentlyViewed(db, signedInUser(request).id, page);
      return { recently_viewed: items, pagination: pagination(total, page.page, page.perPage) };
    },
  );

  app.delete(
    '/users/clear-recently-viewed',
    {
      ...signedIn,
      schema: { response: { 200: Type.Object({ message: Type.String() }), ...errors(401, 409, 503) } },
    },
    async (request, reply) =>
      runCommand(db, request, reply, async (trx) => {
        await clearRecentlyViewed(trx, signedInUser(request).id);
        return { status: 200, body: { message: 'Recently viewed items cleared' } };
      }),
  );
};

export default listRoutes;
