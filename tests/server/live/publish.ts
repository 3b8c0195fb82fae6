// Appends realistic domain events through the real append path, for live-stream tests.
import { compareCursors, cursorOf, headCursor, type Cursor } from '../../../server/events/consumer.ts';
import { nextId } from '../../../server/events/store.ts';
import { streamIds, type BodegaFields, type CatFields, type NewEvent } from '../../../server/events/types.ts';
import type { TargetType } from '../../../server/db/schema.ts';
import type { Services } from '../../../server/services.ts';

export const bodegaFields = (name: string): BodegaFields => ({
  name,
  address: `${name.length} Bleecker St, New York, NY`,
  latitude: 40.7287,
  longitude: -74.0002,
  description: 'Open late',
  phone: '212-555-0100',
  hours: '24/7',
});

export const catFields = (name: string): CatFields => ({
  name,
  description: 'Sleeps on the bread',
  age: '3',
  breed: 'Tabby',
  sex: 'Female',
  personality: 'Bossy',
  color: 'Orange',
  weight: '5 kg',
  is_friendly: true,
});

export function publisher(services: Services) {
  const { db } = services.database;
  let last: Cursor | null = null;
  const append = async (stream: string, expected: number | 'any', events: NewEvent[]) => {
    const result = await services.store.append(db, stream, expected, events);
    last = cursorOf(result.events.at(-1)!);
    return result;
  };
  return {
    /**
     * Waits until everything appended so far is below the log's horizon, i.e. part of the head a
     * new connection is told about.
     */
    async visible(timeoutMs = 60_000): Promise<Cursor | null> {
      const deadline = Date.now() + timeoutMs;
      while (last && compareCursors(await headCursor(db), last) < 0) {
        if (Date.now() > deadline) throw new Error('appended events did not become visible in time');
        await new Promise((r) => setTimeout(r, 20));
      }
      return last;
    },
    async user(username: string): Promise<number> {
      const id = await nextId(db, 'user_ids');
      await db
        .insertInto('users')
        .values({ id, username, email: `${username}@private.example`, password_hash: 'not-a-real-hash' })
        .execute();
      return id;
    },
    async bodega(name: string, createdBy: number | null = null): Promise<number> {
      const id = await nextId(db, 'bodega_ids');
      await append(streamIds.bodega(id), 0, [
        { type: 'BodegaAdded', data: { bodega_id: id, created_by: createdBy, ...bodegaFields(name) } },
      ]);
      return id;
    },
    async renameBodega(id: number, name: string) {
      await append(streamIds.bodega(id), 'any', [
        { type: 'BodegaUpdated', data: { bodega_id: id, ...bodegaFields(name) } },
      ]);
    },
    async deleteBodega(id: number) {
      await append(streamIds.bodega(id), 'any', [{ type: 'BodegaDeleted', data: { bodega_id: id } }]);
    },
    async cat(bodegaId: number, name: string, createdBy: number | null = null): Promise<number> {
      const id = await nextId(db, 'cat_ids');
      await append(streamIds.cat(id), 0, [
        {
          type: 'CatAdded',
          data: { cat_id: id, bodega_id: bodegaId, created_by: createdBy, ...catFields(name) },
        },
      ]);
      return id;
    },
    async renameCat(id: number, name: string) {
      await append(streamIds.cat(id), 'any', [
        { type: 'CatUpdated', data: { cat_id: id, ...catFields(name) } },
      ]);
    },
    async deleteCat(id: number, bodegaId: number) {
      await append(streamIds.cat(id), 'any', [
        { type: 'CatDeleted', data: { cat_id: id, bodega_id: bodegaId } },
      ]);
    },
    async review(userId: number, type: TargetType, targetId: number, rating: number, comment: string) {
      const id = await nextId(db, 'review_ids');
      await append(streamIds.review(id), 0, [
        {
          type: 'ReviewPosted',
          data: { review_id: id, target_type: type, target_id: targetId, user_id: userId, rating, comment },
        },
      ]);
      return id;
    },
    async rating(type: TargetType, targetId: number, rating: number, reviewCount: number) {
      await append(streamIds.rating(type, targetId), 'any', [
        {
          type: 'RatingRecomputed',
          data: { target_type: type, target_id: targetId, rating, review_count: reviewCount },
        },
      ]);
    },
    async uploadPhoto(userId: number, type: TargetType, targetId: number, filename: string) {
      const id = await nextId(db, 'photo_ids');
      await append(streamIds.photo(id), 0, [
        {
          type: 'PhotoUploaded',
          data: {
            photo_id: id,
            target_type: type,
            target_id: targetId,
            uploaded_by: userId,
            filename,
            original_path: `/srv/private/originals/${filename}.jpg`,
            mime_type: 'image/jpeg',
            caption: 'On the counter',
            make_primary: false,
          },
        },
      ]);
      return id;
    },
    async processPhoto(id: number, type: TargetType, targetId: number) {
      await append(streamIds.photo(id), 'any', [
        {
          type: 'PhotoProcessed',
          data: {
            photo_id: id,
            target_type: type,
            target_id: targetId,
            width: 1280,
            height: 960,
            thumb_width: 320,
            thumb_height: 240,
          },
        },
      ]);
    },
    async makePrimary(id: number, type: TargetType, targetId: number) {
      await append(streamIds.photo(id), 'any', [
        { type: 'PhotoPrimarySet', data: { photo_id: id, target_type: type, target_id: targetId } },
      ]);
    },
    async deletePhoto(id: number, type: TargetType, targetId: number) {
      await append(streamIds.photo(id), 'any', [
        { type: 'PhotoDeleted', data: { photo_id: id, target_type: type, target_id: targetId } },
      ]);
    },
    async save(userId: number, type: TargetType, targetId: number) {
      await append(streamIds.saves(userId), 'any', [
        { type: 'ItemSaved', data: { user_id: userId, target_type: type, target_id: targetId } },
      ]);
    },
  };
}
