// The signed-in user's own lists: saving cats and bodegas, the saved lists and recently viewed.
// Mounted with an empty prefix, so paths are spelled out in full (/cats/:id/save, /users/...).
import { Message } from '../../contract/common.ts';
import { RecentlyViewedPage, SaveResult, SavedBodegasPage, SavedCatsPage } from '../../contract/lists.ts';
import type { FastifyPluginAsync } from 'fastify';
import { Type, type TSchema } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB, TargetType } from '../db/schema.ts';
import { signedInUser } from '../plugins/auth.ts';
import { andThen } from '../events/store.ts';
import { runCommand } from '../http/idempotency.ts';
import { errors, PageQuery, pagination, pathTarget } from '../http/schemas.ts';
import { clearRecentlyViewed, listRecentlyViewed } from './recently-viewed.ts';
import { listSavedBodegas, listSavedCats, setSaved, type Page } from './saves.ts';

const TargetParams = Type.Object({ id: Type.String({ maxLength: 40 }) });
const Query = Type.Object(PageQuery);
type PageParams = { page?: number; per_page?: number };

const TARGETS: { path: string; type: TargetType }[] = [
  { path: '/cats/:id/save', type: 'cat' },
  { path: '/bodegas/:id/save', type: 'bodega' },
];

type ReadList = (db: Kysely<DB>, userId: number, page: Page) => Promise<{ items: unknown[]; total: number }>;

function pageOf(query: PageParams): Page {
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
          const command = { userId: user.id, role: user.role, type, targetId: id, metadata };
          const save = setSaved(store, command, saved);
          return runCommand(
            db,
            request,
            reply,
            andThen(save, () => ({ status: 200, body: { saved } })),
          );
        },
      });
    }
  }

  /** `GET url`: one page of the signed-in reader's list, under `key` beside its pagination. */
  function listPage(url: string, key: string, response: TSchema, read: ReadList): void {
    app.get<{ Querystring: PageParams }>(
      url,
      { ...signedIn, schema: { querystring: Query, response: { 200: response, ...errors(400, 401) } } },
      async (request) => {
        const page = pageOf(request.query);
        const { items, total } = await read(db, signedInUser(request).id, page);
        return { [key]: items, pagination: pagination(total, page.page, page.perPage) };
      },
    );
  }
  listPage('/users/savedcats', 'saved_cats', SavedCatsPage, listSavedCats);
  listPage('/users/savedbodegas', 'saved_bodegas', SavedBodegasPage, listSavedBodegas);
  listPage('/users/recently-viewed', 'recently_viewed', RecentlyViewedPage, listRecentlyViewed);

  app.delete(
    '/users/clear-recently-viewed',
    {
      ...signedIn,
      schema: { response: { 200: Message, ...errors(401, 409, 503) } },
    },
    async (request, reply) =>
      runCommand(db, request, reply, {
        locks: [],
        run: async ({ trx }) => {
          await clearRecentlyViewed(trx, signedInUser(request).id);
          return { status: 200, body: { message: 'Recently viewed items cleared' } };
        },
      }),
  );
};

export default listRoutes;
