// What the catalogue's route modules share: id parsing, the write context of a request, recording
// a view without ever failing the page that caused it, and the four routes of an item (read, add,
// edit, delete), each kind giving its own body schemas and commands.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import { Message } from '../../contract/common.ts';
import type { DB, TargetType } from '../db/schema.ts';
import type { WriteTx } from '../events/store.ts';
import { runCommand } from '../http/idempotency.ts';
import { targetNotFound } from '../events/targets.ts';
import { errors, pathTarget } from '../http/schemas.ts';
import { requestMetadata, signedInUser, type CurrentUser } from '../plugins/auth.ts';
import type { Removed, TargetPhotos, WriteContext } from './commands.ts';
import type { ReaderLists, Viewer } from './details.ts';
import { cleanText, expectedVersionOf } from './validation.ts';

const IfMatch = Type.Object({ 'if-match': Type.Optional(Type.String()) });

/** Any text: a path segment that is not a whole number names nothing, so it is a 404, not a 400. */
const ItemParams = Type.Object({ id: Type.String({ maxLength: 200 }) });

export function writeContext(request: FastifyRequest, tx: WriteTx): WriteContext {
  return {
    tx,
    store: request.server.services.store,
    metadata: requestMetadata(request),
  };
}

async function recordViewQuietly(
  request: FastifyRequest,
  lists: ReaderLists,
  type: TargetType,
  id: number,
): Promise<void> {
  const user = request.currentUser;
  if (!user) return;
  try {
    await lists.recordView(request.server.services.database.db, user.id, type, id);
  } catch (error) {
    request.log.warn({ err: error, type, id }, 'could not record a recently viewed item');
  }
}

/** One kind of catalogue item, as its routes see it. */
export type ItemRoutes<Body> = {
  type: TargetType;
  /** The answer of a successful delete, e.g. 'Cat deleted'. */
  deleted: string;
  /** The schema of the item's full answer (read, add and edit). */
  response: TSchema;
  /** The reader's saves and recently viewed items, as the lists domain keeps them. */
  lists: ReaderLists;
  /** The item's photos, as the photos domain keeps them, which its deletion deletes too. */
  photos: TargetPhotos;
  read(db: Kysely<DB>, id: number, reader: { viewer: Viewer; lists: ReaderLists }): Promise<Body | null>;
  remove(
    ctx: WriteContext,
    photos: TargetPhotos,
    id: number,
    actorId: number,
    expected: number | null,
  ): Promise<Removed>;
};

/** What the catalogue's route modules get from routes.ts: the other domains they ask. */
export type CatalogueRouteOptions = Pick<ItemRoutes<unknown>, 'lists' | 'photos'>;

/** The item's full answer, or a 404 when it does not exist (or no longer does). */
export async function itemResponse<Body>(
  item: ItemRoutes<Body>,
  db: Kysely<DB>,
  id: number,
  viewer: Viewer,
): Promise<Body> {
  const body = await item.read(db, id, { viewer, lists: item.lists });
  if (!body) throw targetNotFound(item);
  return body;
}

/**
 * `GET /:id` (recording the view for a signed-in reader) and `DELETE /:id` (owner, If-Match). The
 * page is the same for every visitor, so a replica may serve it; a signed-in reader's shows their
 * own saves, read on the primary.
 */
export function registerReadAndDelete<Body>(app: FastifyInstance, item: ItemRoutes<Body>): void {
  const { db } = app.services.database;
  app.get<{ Params: { id: string } }>(
    '/:id',
    {
      config: { reads: 'visitor' },
      schema: { params: ItemParams, response: { 200: item.response, ...errors(404) } },
    },
    async (request) => {
      const { id } = pathTarget(item.type, request.params.id);
      const reader = await request.reader();
      const body = await itemResponse(item, reader.db, id, request.currentUser);
      await recordViewQuietly(request, item.lists, item.type, id);
      return body;
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/:id',
    {
      preHandler: app.requireUser,
      schema: {
        params: ItemParams,
        headers: IfMatch,
        response: { 200: Message, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const { id } = pathTarget(item.type, request.params.id);
      const expected = expectedVersionOf(request.headers['if-match']);
      return runCommand(db, request, reply, {
        locks: [],
        async run(tx) {
          const removed = await item.remove(writeContext(request, tx), item.photos, id, user.id, expected);
          await item.lists.forgetViews(tx.trx, 'cat', removed.cat);
          await item.lists.forgetViews(tx.trx, 'bodega', removed.bodega);
          return { status: 200, body: { message: item.deleted } };
        },
      });
    },
  );
}

/**
 * A write whose lookups outside the transaction (the geocoder) are done: what runs inside it. An
 * add answers the new item's id.
 */
export type PreparedWrite<T> = (ctx: WriteContext) => Promise<T>;

/** `POST /` (signed in): `prepare` gets the trimmed body before the transaction opens. */
export function registerAdd<Body extends TObject, Item>(
  app: FastifyInstance,
  item: ItemRoutes<Item>,
  body: Body,
  prepare: (body: Static<Body>, author: CurrentUser) => Promise<PreparedWrite<number>>,
): void {
  const { db } = app.services.database;
  app.post<{ Body: Static<Body> }>(
    '/',
    {
      preHandler: app.requireUser,
      schema: { body, response: { 201: item.response, ...errors(400, 401, 409) } },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const add = await prepare(cleanText(request.body as Static<Body>), user);
      return runCommand(db, request, reply, {
        locks: [],
        async run(tx) {
          const id = await add(writeContext(request, tx));
          return { status: 201, body: await itemResponse(item, tx.trx, id, user) };
        },
      });
    },
  );
}

/** Who edits which version of which item, as `PUT /:id` reads it from the request. */
export type EditRequest = { id: number; actor: CurrentUser; expected: number | null };

/** `PUT /:id` (owner, If-Match): `prepare` gets the trimmed body before the transaction opens. */
export function registerEdit<Body extends TObject, Item>(
  app: FastifyInstance,
  item: ItemRoutes<Item>,
  body: Body,
  prepare: (edit: EditRequest, body: Static<Body>) => Promise<PreparedWrite<void>>,
): void {
  const { db } = app.services.database;
  app.put<{ Params: { id: string }; Body: Static<Body> }>(
    '/:id',
    {
      preHandler: app.requireUser,
      schema: {
        params: ItemParams,
        headers: IfMatch,
        body,
        response: { 200: item.response, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const { id } = pathTarget(item.type, request.params.id);
      const expected = expectedVersionOf(request.headers['if-match']);
      const edit = await prepare({ id, actor: user, expected }, cleanText(request.body as Static<Body>));
      return runCommand(db, request, reply, {
        locks: [],
        async run(tx) {
          await edit(writeContext(request, tx));
          return { status: 200, body: await itemResponse(item, tx.trx, id, user) };
        },
      });
    },
  );
}
