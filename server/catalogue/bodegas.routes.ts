// /api/bodegas: read a bodega with its cats; add one; edit and delete one's own (deleting a bodega
// deletes its cats).
import { signedInUser } from '../plugins/auth.ts';
import { BodegaResponse } from '../../contract/catalogue.ts';
import type { FastifyPluginAsync } from 'fastify';
import { errors, pathTarget } from '../http/schemas.ts';
import { runCommand } from '../http/idempotency.ts';
import { addBodega, deleteBodega, editBodega } from './commands.ts';
import { bodegaResponse, type ReaderLists } from './details.ts';
import { createGeocoder } from './geocoder.ts';
import {
  IfMatch,
  ItemParams,
  itemResponse,
  registerReadAndDelete,
  writeContext,
  type ItemRoutes,
} from './http.ts';
import { normalizeText } from './normalize.ts';
import { BodegaBody, cleanText, coordinatesOf, expectedVersionOf, type Coordinates } from './validation.ts';

const bodegaItem: Omit<ItemRoutes<BodegaResponse>, 'lists'> = {
  type: 'bodega',
  deleted: 'Bodega deleted',
  response: BodegaResponse,
  read: bodegaResponse,
  remove: deleteBodega,
};

/** Options: the reader's lists, for `saved` and recently viewed (see details.ts). */
const bodegaRoutes: FastifyPluginAsync<{ lists: ReaderLists }> = async (app, { lists }) => {
  const bodega: ItemRoutes<BodegaResponse> = { ...bodegaItem, lists };
  const { database, config, logger } = app.services;
  const { db } = database;
  const geocoder = createGeocoder(config, logger);

  registerReadAndDelete(app, bodega);
  app.post<{ Body: BodegaBody }>(
    '/',
    {
      preHandler: app.requireUser,
      schema: { body: BodegaBody, response: { 201: BodegaResponse, ...errors(400, 401, 409) } },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const body = cleanText(request.body);
      const coordinates = coordinatesOf(body) ?? (await geocoder.geocode(body.address));
      return runCommand(db, request, reply, async (trx) => {
        const fields = {
          name: body.name,
          address: body.address,
          latitude: coordinates?.latitude ?? null,
          longitude: coordinates?.longitude ?? null,
          description: body.description ?? '',
          phone: body.phone ?? '',
          hours: body.hours ?? '',
        };
        const id = await addBodega(writeContext(request, trx), fields, user.id);
        return { status: 201, body: await itemResponse(bodega, trx, id, user) };
      });
    },
  );

  app.put<{ Params: { id: string }; Body: BodegaBody }>(
    '/:id',
    {
      preHandler: app.requireUser,
      schema: {
        params: ItemParams,
        headers: IfMatch,
        body: BodegaBody,
        response: { 200: BodegaResponse, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const { id } = pathTarget(bodega.type, request.params.id);
      const expected = expectedVersionOf(request.headers['if-match']);
      const { latitude, longitude, ...text } = cleanText(request.body);
      const given = coordinatesOf({ latitude, longitude });
      const geocoded = given ? undefined : await geocodeIfMoved(id, text.address);
      return runCommand(db, request, reply, async (trx) => {
        const edit = { text, coordinates: given, geocoded };
        await editBodega(writeContext(request, trx), id, user.id, expected, edit);
        return { status: 200, body: await itemResponse(bodega, trx, id, user) };
      });
    },
  );

  /** A new address is looked up again (before the transaction); an unchanged one is not. */
  async function geocodeIfMoved(id: number, address: string): Promise<Coordinates | null | undefined> {
    const current = await db.selectFrom('bodegas').select('address').where('id', '=', id).executeTakeFirst();
    if (!current || normalizeText(current.address) === normalizeText(address)) return undefined;
    return geocoder.geocode(address);
  }
};

export default bodegaRoutes;
