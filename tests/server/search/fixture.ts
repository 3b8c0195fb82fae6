// A small neighbourhood for search tests, appended as events through the real store.
import { nextId } from '../../../server/events/store.ts';
import { streamIds, type BodegaFields, type CatFields } from '../../../server/events/types.ts';
import type { Services } from '../../../server/services.ts';

/** City Hall, Manhattan: the centre most nearby tests search around. */
export const CITY_HALL = { lat: 40.7128, lng: -74.006 };

/** Great-circle distance in km on earthdistance's sphere (radius 6378168 m). */
export function kmBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return (2 * 6378168 * Math.asin(Math.sqrt(h))) / 1000;
}

const bodegaDefaults: BodegaFields = {
  name: '',
  address: '',
  latitude: null,
  longitude: null,
  description: '',
  phone: '',
  hours: '',
};

const catDefaults: CatFields = {
  name: '',
  description: '',
  age: '',
  breed: '',
  sex: '',
  personality: '',
  color: '',
  weight: '',
  is_friendly: true,
};

export async function addBodega(
  services: Services,
  fields: Partial<BodegaFields> & { name: string; address: string },
  extra: { verified?: boolean; rating?: number } = {},
): Promise<number> {
  const { db } = services.database;
  const id = await nextId(db, 'bodega_ids');
  await services.store.append(db, streamIds.bodega(id), 0, [
    { type: 'BodegaAdded', data: { bodega_id: id, created_by: null, ...bodegaDefaults, ...fields } },
    ...(extra.verified
      ? [{ type: 'BodegaVerified' as const, data: { bodega_id: id, is_verified: true } }]
      : []),
  ]);
  if (extra.rating !== undefined) await rate(services, 'bodega', id, extra.rating);
  return id;
}

export async function addCat(
  services: Services,
  bodegaId: number,
  fields: Partial<CatFields> & { name: string },
  extra: { rating?: number } = {},
): Promise<number> {
  const { db } = services.database;
  const id = await nextId(db, 'cat_ids');
  await services.store.append(db, streamIds.cat(id), 0, [
    {
      type: 'CatAdded',
      data: { cat_id: id, bodega_id: bodegaId, created_by: null, ...catDefaults, ...fields },
    },
  ]);
  if (extra.rating !== undefined) await rate(services, 'cat', id, extra.rating);
  return id;
}

export async function rate(services: Services, type: 'cat' | 'bodega', id: number, rating: number) {
  await services.store.append(services.database.db, streamIds.rating(type, id), 'any', [
    { type: 'RatingRecomputed', data: { target_type: type, target_id: id, rating, review_count: 3 } },
  ]);
}

export async function updateCat(services: Services, id: number, fields: CatFields) {
  await services.store.append(services.database.db, streamIds.cat(id), 'any', [
    { type: 'CatUpdated', data: { cat_id: id, ...fields } },
  ]);
}

export async function deleteCat(services: Services, id: number, bodegaId: number) {
  await services.store.append(services.database.db, streamIds.cat(id), 'any', [
    { type: 'CatDeleted', data: { cat_id: id, bodega_id: bodegaId } },
  ]);
}

export async function updateBodega(
  services: Services,
  id: number,
  fields: Partial<BodegaFields> & { name: string; address: string },
) {
  await services.store.append(services.database.db, streamIds.bodega(id), 'any', [
    { type: 'BodegaUpdated', data: { bodega_id: id, ...bodegaDefaults, ...fields } },
  ]);
}

export async function deleteBodega(services: Services, id: number) {
  await services.store.append(services.database.db, streamIds.bodega(id), 'any', [
    { type: 'BodegaDeleted', data: { bodega_id: id } },
  ]);
}

export function catFields(fields: Partial<CatFields> & { name: string }): CatFields {
  return { ...catDefaults, ...fields };
}

/**
 * Five shops around lower Manhattan, Brooklyn and the Bronx (one never geocoded) and their cats,
 * with breeds and personalities spelled in several cases on purpose.
 */
export async function buildWorld(services: Services) {
  const b = {
    sunny: await addBodega(
      services,
      { name: 'Sunny Deli', address: '100 Broadway, New York, NY', latitude: 40.7128, longitude: -74.006 },
      { verified: true, rating: 4.5 },
    ),
    corner: await addBodega(
      services,
      {
        name: 'Whiskers Corner',
        address: '20 Park Row, New York, NY',
        latitude: 40.7215,
        longitude: -74.0005,
      },
      { rating: 3 },
    ),
    golden: await addBodega(
      services,
      {
        name: 'Golden Grocery',
        address: '200 Bedford Ave, Brooklyn, NY',
        latitude: 40.717,
        longitude: -73.957,
      },
      { verified: true, rating: 2 },
    ),
    bronx: await addBodega(
      services,
      {
        name: 'Concourse Market',
        address: '300 Grand Concourse, Bronx, NY',
        latitude: 40.82,
        longitude: -73.925,
      },
      { rating: 5 },
    ),
    mystery: await addBodega(services, { name: 'Mystery Mart', address: '1 Nowhere Lane, Queens, NY' }),
  };
  const c = {
    whiskers: await addCat(
      services,
      b.sunny,
      { name: 'Whiskers the Tabby', breed: 'Tabby', personality: 'Friendly', color: 'Orange' },
      { rating: 4.5 },
    ),
    ginger: await addCat(
      services,
      b.sunny,
      {
        name: 'Ginger',
        breed: 'Calico',
        personality: 'Curious',
        description: 'Chases the whiskers of every dog',
      },
      { rating: 4 },
    ),
    milo: await addCat(
      services,
      b.corner,
      { name: 'Milo', breed: 'Maine Coon', personality: 'Lazy', description: 'Sleeps by the register' },
      { rating: 2 },
    ),
    mittens: await addCat(
      services,
      b.golden,
      { name: 'Mittens', breed: 'tabby', personality: 'Shy', is_friendly: false },
      { rating: 3 },
    ),
    bobby: await addCat(services, b.golden, {
      name: "Robert'); DROP TABLE cats;--",
      breed: 'maine coon',
      personality: 'friendly',
      description: '100% cat_ish, with a back\\slash',
    }),
    shadow: await addCat(
      services,
      b.bronx,
      { name: 'Shadow', breed: 'TABBY', personality: 'friendly', color: 'Black' },
      { rating: 5 },
    ),
    luna: await addCat(
      services,
      b.mystery,
      { name: 'Luna', breed: 'Siamese', personality: 'Playful' },
      { rating: 1 },
    ),
  };
  return { bodegas: b, cats: c };
}

export type World = Awaited<ReturnType<typeof buildWorld>>;
