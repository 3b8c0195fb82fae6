// /api/cats: read a cat with its bodega; add one (finding or adding its bodega); edit and delete
// one's own.
import { signedInUser } from '../plugins/auth.ts';
import { CatResponse } from '../../contract/catalogue.ts';
import type { FastifyPluginAsync } from 'fastify';
import { errors, pathTarget } from '../http/schemas.ts';
import { runCommand } from '../http/idempotency.ts';
import { addCat, deleteCat, editCat, findBodegaIdByKey, findOrAddBodega } from './commands.ts';
import { catResponse, type ReaderLists } from './details.ts';
import { createGeocoder } from './geocoder.ts';
import {
  IfMatch,
  ItemParams,
  itemResponse,
  registerReadAndDelete,
  writeContext,
  type ItemRoutes,
} from './http.ts';
import { bodegaMatchKey } from './normalize.ts';
import {
  CatEditBody,
  cleanText,
  coordinatesOf,
  expectedVersionOf,
  newCatFields,
  NewCatBody,
  type Coordinates,
} from './validation.ts';

const catItem: Omit<ItemRoutes<CatResponse>, 'lists'> = {
  type: 'cat',
  deleted: 'Cat deleted',
  response: CatResponse,
  read: catResponse,
  remove: deleteCat,
};

/** Options: the reader's lists, for `saved` and recently viewed (see details.ts). */
const catRoutes: FastifyPluginAsync<{ lists: ReaderLists }> = async (app, { lists }) => {
  const cat: ItemRoutes<CatResponse> = { ...catItem, lists };
  const { database, config, logger } = app.services;
  const { db } = database;
  const geocoder = createGeocoder(config, logger);

  registerReadAndDelete(app, cat);
  app.post<{ Body: NewCatBody }>(
    '/',
    {
      preHandler: app.requireUser,
      schema: { body: NewCatBody, response: { 201: CatResponse, ...errors(400, 401, 409) } },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const body = cleanText(request.body);
      const given = coordinatesOf(body);
      // Look the address up before the transaction, and only for a bodega we do not know yet.
      let coordinates: Coordinates | null = given;
      if (!given && (await findBodegaIdByKey(db, bodegaMatchKey(body.bodega_name, body.address))) === null)
        coordinates = await geocoder.geocode(body.address);
      return runCommand(db, request, reply, async (trx) => {
        const ctx = writeContext(request, trx);
        const bodegaId = await findOrAddBodega(
          ctx,
          {
            name: body.bodega_name,
            address: body.address,
            latitude: coordinates?.latitude ?? null,
            longitude: coordinates?.longitude ?? null,
            description: '',
            phone: '',
            hours: '',
          },
          user.id,
        );
        const catId = await addCat(ctx, bodegaId, newCatFields(body), user.id);
        return { status: 201, body: await itemResponse(cat, trx, catId, user) };
      });
    },
  );

  app.put<{ Params: { id: string }; Body: CatEditBody }>(
    '/:id',
    {
      preHandler: app.requireUser,
      schema: {
        params: ItemParams,
        headers: IfMatch,
        body: CatEditBody,
        response: { 200: CatResponse, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const { id } = pathTarget(cat.type, request.params.id);
      const expected = expectedVersionOf(request.headers['if-match']);
      const edit = cleanText(request.body);
      return runCommand(db, request, reply, async (trx) => {
        await editCat(writeContext(request, trx), id, user.id, expected, edit);
        return { status: 200, body: await itemResponse(cat, trx, id, user) };
      });
    },
  );
};

export default catRoutes;
