// Cats and bodegas given to a test by appending the catalogue's own events (the path its routes
// take): a plain corner deli and a plain tabby, with whatever fields the suite cares about.
import { nextId } from '../../server/events/store.ts';
import { streamIds, type BodegaFields, type CatFields } from '../../server/events/types.ts';
import type { Services } from '../../server/services.ts';

type Creator = { created_by?: number | null };

/** A bodega at `<id> Broadway`, named Corner Deli unless `fields` say otherwise. */
export async function appendBodega(
  services: Services,
  fields: Partial<BodegaFields> & Creator = {},
): Promise<number> {
  const { db } = services.database;
  const id = await nextId(db, 'bodega_ids');
  await services.store.append(db, streamIds.bodega(id), 0, [
    {
      type: 'BodegaAdded',
      data: {
        bodega_id: id,
        created_by: null,
        name: 'Corner Deli',
        address: `${id} Broadway, New York, NY`,
        latitude: 40.75,
        longitude: -73.98,
        description: '',
        phone: '',
        hours: '',
        ...fields,
      },
    },
  ]);
  return id;
}

/** A cat of the bodega: Whiskers, a friendly tabby, unless `fields` say otherwise. */
export async function appendCat(
  services: Services,
  bodegaId: number,
  fields: Partial<CatFields> & Creator = {},
): Promise<number> {
  const { db } = services.database;
  const id = await nextId(db, 'cat_ids');
  await services.store.append(db, streamIds.cat(id), 0, [
    {
      type: 'CatAdded',
      data: {
        cat_id: id,
        bodega_id: bodegaId,
        created_by: null,
        name: 'Whiskers',
        description: '',
        age: '',
        breed: 'Tabby',
        sex: 'Unknown',
        personality: '',
        color: '',
        weight: '',
        is_friendly: true,
        ...fields,
      },
    },
  ]);
  return id;
}
