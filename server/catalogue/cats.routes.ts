// /api/cats: read a cat with its bodega; add one (finding or adding its bodega); edit and delete
// one's own.
import { CatEditBody, CatResponse, NewCatBody } from '../../contract/catalogue.ts';
import type { FastifyPluginAsync } from 'fastify';
import { addCat, deleteCat, editCat, findBodegaIdByKey, findOrAddBodega } from './commands.ts';
import { catResponse } from './details.ts';
import { createGeocoder } from './geocoder.ts';
import {
  registerAdd,
  registerEdit,
  registerReadAndDelete,
  type CatalogueRouteOptions,
  type ItemRoutes,
} from './http.ts';
import { bodegaMatchKey } from './normalize.ts';
import { coordinatesOf, newCatFields, type Coordinates } from './validation.ts';

const catItem: Omit<ItemRoutes<CatResponse>, 'lists' | 'photos'> = {
  type: 'cat',
  deleted: 'Cat deleted',
  response: CatResponse,
  read: catResponse,
  remove: deleteCat,
};

/**
 * Options: the reader's lists, for `saved` and recently viewed (see details.ts), and the photos a
 * deletion deletes (see commands.ts).
 */
const catRoutes: FastifyPluginAsync<CatalogueRouteOptions> = async (app, { lists, photos }) => {
  const cat: ItemRoutes<CatResponse> = { ...catItem, lists, photos };
  const { database, config, logger } = app.services;
  const { db } = database;
  const geocoder = createGeocoder(config, logger);

  registerReadAndDelete(app, cat);
  registerAdd(app, cat, NewCatBody, async (body, author) => {
    const given = coordinatesOf(body);
    // Look the address up before the transaction, and only for a bodega the caller does not have yet.
    let coordinates: Coordinates | null = given;
    const key = bodegaMatchKey(body.bodega_name, body.address);
    if (!given && (await findBodegaIdByKey(db, key, { reader: author })) === null)
      coordinates = await geocoder.geocode(body.address);
    const bodegaFields = {
      name: body.bodega_name,
      address: body.address,
      latitude: coordinates?.latitude ?? null,
      longitude: coordinates?.longitude ?? null,
      description: '',
      phone: '',
      hours: '',
    };
    return async (ctx) => {
      const bodegaId = await findOrAddBodega(ctx, bodegaFields, author);
      return addCat(ctx, bodegaId, newCatFields(body), author.id);
    };
  });
  registerEdit(
    app,
    cat,
    CatEditBody,
    async ({ id, actor, expected }, edit) =>
      (ctx) =>
        editCat(ctx, id, actor.id, expected, edit),
  );
};

export default catRoutes;
