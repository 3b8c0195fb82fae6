// The cats and bodegas a person added, for their account's deletion and export
// (accounts/personal-data.ts).
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

export const cataloguePersonalData = {
  /** Nothing here: the cats and bodegas stay, and the catalogue's projection forgets who added them on AccountDeleted. */
  async erase() {},

  async export(trx: Kysely<DB>, userId: number) {
    const cats = await trx
      .selectFrom('cats')
      .select(['id', 'name', 'bodega_id', 'created_at'])
      .where('created_by', '=', userId)
      .orderBy('id')
      .execute();
    const bodegas = await trx
      .selectFrom('bodegas')
      .select(['id', 'name', 'address', 'created_at'])
      .where('created_by', '=', userId)
      .orderBy('id')
      .execute();
    return {
      cats_added: cats.map((c) => ({
        id: Number(c.id),
        name: c.name,
        bodega_id: Number(c.bodega_id),
        created_at: new Date(c.created_at).toISOString(),
      })),
      bodegas_added: bodegas.map((b) => ({
        id: Number(b.id),
        name: b.name,
        address: b.address,
        created_at: new Date(b.created_at).toISOString(),
      })),
    };
  },
};
