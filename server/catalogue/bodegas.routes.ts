// /api/bodegas: read a bodega with its cats; add one; edit and delete one's own (deleting a bodega
// deletes its cats).
import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import { NotFound } from '../errors.ts';
import { runCommand } from '../http/idempotency.ts';
import { BodegaDetail, CatSummary, errors } from '../http/schemas.ts';
import { addBodega, deleteBodega, editBodega } from './commands.ts';
import { bodegaResponse, type Viewer } from './details.ts';
import { createGeocoder } from './geocoder.ts';
import { itemId, ItemParams, recordViewQuietly, signedInUser, writeContext } from './http.ts';
import { normalizeText } from './normalize.ts';
import { BodegaBody, cleanText, coordinatesOf, expectedVersionOf, type Coordinates } from './validation.ts';

const BodegaResponse = Type.Object({ bodega: BodegaDetail, cats: Type.Array(CatSummary) });
const Message = Type.Object({ message: Type.String() });
const IfMatch = Type.Object({ 'if-match': Type.Optional(Type.String()) });
const MISSING = 'Bodega not found';

const bodegaRoutes: FastifyPluginAsync = async (app) => {
  const { database, config, logger } = app.services;
  const { db } = database;
  const geocoder = createGeocoder(config, logger);

  async function respond(trx: typeof db, id: number, viewer: Viewer) {
    const body = await bodegaResponse(trx, id, viewer);
    if (!body) throw new NotFound(MISSING);
    return body;
  }

  app.get<{ Params: { id: string } }>(
    '/:id',
    { schema: { params: ItemParams, response: { 200: BodegaResponse, ...errors(404) } } },
    async (request) => {
      const id = itemId(request.params.id, MISSING);
      const body = await respond(db, id, request.currentUser?.id ?? null);
      await recordViewQuietly(request, 'bodega', id);
      return body;
    },
  );

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
        return { status: 201, body: await respond(trx, id, user.id) };
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
      const id = itemId(request.params.id, MISSING);
      const expected = expectedVersionOf(request.headers['if-match']);
      const { latitude, longitude, ...text } = cleanText(request.body);
      const given = coordinatesOf({ latitude, longitude });
      const geocoded = given ? undefined : await geocodeIfMoved(id, text.address);
      return runCommand(db, request, reply, async (trx) => {
        const edit = { text, coordinates: given, geocoded };
        await editBodega(writeContext(request, trx), id, user.id, expected, edit);
        return { status: 200, body: await respond(trx, id, user.id) };
      });
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
      const id = itemId(request.params.id, MISSING);
      const expected = expectedVersionOf(request.headers['if-match']);
      return runCommand(db, request, reply, async (trx) => {
        await deleteBodega(writeContext(request, trx), id, user.id, expected);
        return { status: 200, body: { message: 'Bodega deleted' } };
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
