// /api/bodegas: read a bodega with its cats; add one; edit and delete one's own (deleting a bodega
// deletes its cats).
import { BodegaBody, BodegaResponse } from '../../contract/catalogue.ts';
import type { FastifyPluginAsync } from 'fastify';
import { addBodega, deleteBodega, editBodega } from './commands.ts';
import { bodegaResponse } from './details.ts';
import { createGeocoder } from './geocoder.ts';
import {
  registerAdd,
  registerEdit,
  registerReadAndDelete,
  type CatalogueRouteOptions,
  type ItemRoutes,
} from './http.ts';
import { normalizeText } from './normalize.ts';
import { coordinatesOf, type Coordinates } from './validation.ts';

const bodegaItem: Omit<ItemRoutes<BodegaResponse>, 'lists' | 'photos'> = {
  type: 'bodega',
  deleted: 'Bodega deleted',
  response: BodegaResponse,
  read: bodegaResponse,
  remove: deleteBodega,
};

/**
 * Options: the reader's lists, for `saved` and recently viewed (see details.ts), and the photos a
 * deletion deletes (see commands.ts).
 */
const bodegaRoutes: FastifyPluginAsync<CatalogueRouteOptions> = async (app, { lists, photos }) => {
  const bodega: ItemRoutes<BodegaResponse> = { ...bodegaItem, lists, photos };
  const { database, config, logger } = app.services;
  const { db } = database;
  const geocoder = createGeocoder(config, logger);

  registerReadAndDelete(app, bodega);
  registerAdd(app, bodega, BodegaBody, async (body, author) => {
    const coordinates = coordinatesOf(body) ?? (await geocoder.geocode(body.address));
    const fields = {
      name: body.name,
      address: body.address,
      latitude: coordinates?.latitude ?? null,
      longitude: coordinates?.longitude ?? null,
      description: body.description ?? '',
      phone: body.phone ?? '',
      hours: body.hours ?? '',
    };
    return (ctx) => addBodega(ctx, fields, author);
  });
  registerEdit(app, bodega, BodegaBody, async ({ id, actor, expected }, body) => {
    const { latitude, longitude, ...text } = body;
    const given = coordinatesOf({ latitude, longitude });
    const geocoded = given ? undefined : await geocodeIfMoved(id, text.address);
    return (ctx) => editBodega(ctx, id, actor, expected, { text, coordinates: given, geocoded });
  });

  /** A new address is looked up again (before the transaction); an unchanged one is not. */
  async function geocodeIfMoved(id: number, address: string): Promise<Coordinates | null | undefined> {
    const current = await db.selectFrom('bodegas').select('address').where('id', '=', id).executeTakeFirst();
    if (!current || normalizeText(current.address) === normalizeText(address)) return undefined;
    return geocoder.geocode(address);
  }
};

export default bodegaRoutes;
