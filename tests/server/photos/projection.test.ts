// The photos read model as a pure function of the log: given events, then the table; and a
// replay rebuilds exactly what the live projection wrote.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventStore } from '../../../server/events/store.ts';
import { replay } from '../../../server/events/replay.ts';
import { photosProjection } from '../../../server/photos/projection.ts';
import type { NewEvent } from '../../../server/events/types.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/storage.ts';

const store = createEventStore([photosProjection]);
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

const uploaded = (photoId: number, targetId: number, makePrimary = false): NewEvent => ({
  type: 'PhotoUploaded',
  data: {
    photo_id: photoId,
    target_type: 'cat',
    target_id: targetId,
    uploaded_by: 1,
    filename: `f${photoId}`,
    original_path: `originals/f${photoId}.jpg`,
    mime_type: 'image/jpeg',
    caption: '',
    make_primary: makePrimary,
  },
});
const target = (photoId: number, targetId: number) => ({
  photo_id: photoId,
  target_type: 'cat' as const,
  target_id: targetId,
});
const processed = (photoId: number, targetId: number): NewEvent => ({
  type: 'PhotoProcessed',
  data: { ...target(photoId, targetId), width: 1280, height: 960, thumb_width: 320, thumb_height: 240 },
});

async function given(...events: NewEvent[]) {
  for (const event of events) {
    const { photo_id } = event.data as { photo_id: number };
    await store.append(t.database.db, `photo-${photo_id}`, 'any', [event]);
  }
}

async function photosOf(targetId: number) {
  const rows = await t.database.db
    .selectFrom('photos')
    .select(['id', 'status', 'is_primary'])
    .where('target_type', '=', 'cat')
    .where('target_id', '=', targetId)
    .orderBy('id')
    .execute();
  return rows.map((r) => `${r.id}:${r.status}${r.is_primary ? ':primary' : ''}`);
}

describe('photos projection', () => {
  it('makes the first photo primary and moves the primary on request', async () => {
    await given(uploaded(1, 10), uploaded(2, 10), processed(1, 10), uploaded(3, 10, true));
    expect(await photosOf(10)).toEqual(['1:ready', '2:processing', '3:processing:primary']);
    await given({ type: 'PhotoPrimarySet', data: target(2, 10) });
    expect(await photosOf(10)).toEqual(['1:ready', '2:processing:primary', '3:processing']);
  });

  it('promotes the oldest remaining ready-or-processing photo when the primary goes', async () => {
    await given(uploaded(11, 20), uploaded(12, 20), uploaded(13, 20), uploaded(14, 20));
    await given({ type: 'PhotoFailed', data: { ...target(12, 20), reason: 'bad' } });
    await given({ type: 'PhotoDeleted', data: target(11, 20) });
    expect(await photosOf(20)).toEqual(['12:failed', '13:processing:primary', '14:processing']);
    await given({ type: 'PhotoFailed', data: { ...target(13, 20), reason: 'bad' } });
    expect(await photosOf(20)).toEqual(['12:failed', '13:failed', '14:processing:primary']);
    await given(processed(14, 20), { type: 'PhotoDeleted', data: target(12, 20) });
    expect(await photosOf(20)).toEqual(['13:failed', '14:ready:primary']);
  });

  it('a new upload becomes primary when the only primary has failed', async () => {
    await given(uploaded(21, 30), { type: 'PhotoFailed', data: { ...target(21, 30), reason: 'bad' } });
    await given(uploaded(22, 30));
    expect(await photosOf(30)).toEqual(['21:failed', '22:processing:primary']);
  });

  it('drops a deleted cat’s photos and ignores late outcomes for deleted photos', async () => {
    await given(uploaded(31, 40), uploaded(32, 40));
    await store.append(t.database.db, 'cat-40', 'any', [
      { type: 'CatDeleted', data: { cat_id: 40, bodega_id: 1 } },
    ]);
    await given(processed(31, 40), { type: 'PhotoPrimarySet', data: target(32, 40) });
    expect(await photosOf(40)).toEqual([]);
  });

  it('replay rebuilds the same table', async () => {
    const result = await replay(t.database, [photosProjection], { verify: true });
    expect(result.differences).toEqual([expect.objectContaining({ table: 'photos', same: true })]);
  });
});
