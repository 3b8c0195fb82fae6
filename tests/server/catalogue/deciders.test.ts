// The aggregates' pure rules, given a history, when a command, then these events (or this error).
import { describe, expect, it } from 'vitest';
import { decideBodega, evolveBodega, type BodegaEventType } from '../../../server/catalogue/bodega.ts';
import { decideCat, evolveCat, type CatEventType } from '../../../server/catalogue/cat.ts';
import { ConcurrencyError, Conflict, Forbidden, NotFound } from '../../../server/errors.ts';
import type { BodegaFields, CatFields, NewEvent, RecordedEvent } from '../../../server/events/types.ts';

const catFields: CatFields = {
  name: 'Mango',
  description: '',
  age: '2 years',
  breed: '',
  sex: 'Male',
  personality: 'Lazy',
  color: 'Orange',
  weight: '',
  is_friendly: true,
};
const bodegaFields: BodegaFields = {
  name: 'Sunny Deli',
  address: '1 Grand St',
  latitude: 40.7,
  longitude: -73.9,
  description: '',
  phone: '',
  hours: '',
};

function recorded<T extends CatEventType | BodegaEventType>(events: NewEvent<T>[]): RecordedEvent<T>[] {
  return events.map(
    (e, i) =>
      ({
        ...e,
        streamId: 's',
        streamVersion: i + 1,
        position: i + 1,
        transactionId: '1',
        recordedAt: new Date(0),
        metadata: {},
      }) as RecordedEvent<T>,
  );
}

const givenCat = (...events: NewEvent<CatEventType>[]) => recorded(events).reduce(evolveCat, null);
const givenBodega = (...events: NewEvent<BodegaEventType>[]) => recorded(events).reduce(evolveBodega, null);
const catAdded: NewEvent<'CatAdded'> = {
  type: 'CatAdded',
  data: { cat_id: 7, bodega_id: 3, created_by: 1, ...catFields },
};
const bodegaAdded: NewEvent<'BodegaAdded'> = {
  type: 'BodegaAdded',
  data: { bodega_id: 3, created_by: 1, ...bodegaFields },
};

describe('the cat', () => {
  it('is added once', () => {
    const add = { type: 'AddCat', catId: 7, bodegaId: 3, createdBy: 1, fields: catFields } as const;
    expect(decideCat(add, null)).toEqual([catAdded]);
    expect(() => decideCat(add, givenCat(catAdded))).toThrow(Conflict);
  });

  it('is edited by its creator, keeping what the edit leaves out', () => {
    const state = givenCat(catAdded);
    const events = decideCat(
      { type: 'EditCat', actorId: 1, expectedVersion: 1, edit: { name: 'Mango II', breed: undefined } },
      state,
    );
    expect(events).toEqual([{ type: 'CatUpdated', data: { cat_id: 7, ...catFields, name: 'Mango II' } }]);
  });

  it('is not changed by an edit that changes nothing', () => {
    expect(
      decideCat(
        { type: 'EditCat', actorId: 1, expectedVersion: null, edit: { name: 'Mango' } },
        givenCat(catAdded),
      ),
    ).toEqual([]);
  });

  it('refuses strangers, stale versions and the deleted', () => {
    const state = givenCat(catAdded);
    const edit = { name: 'X' };
    expect(() => decideCat({ type: 'EditCat', actorId: 2, expectedVersion: null, edit }, state)).toThrow(
      Forbidden,
    );
    expect(() => decideCat({ type: 'DeleteCat', actorId: 1, expectedVersion: 2 }, state)).toThrow(
      ConcurrencyError,
    );
    const deleted = givenCat(catAdded, { type: 'CatDeleted', data: { cat_id: 7, bodega_id: 3 } });
    expect(() => decideCat({ type: 'DeleteCat', actorId: 1, expectedVersion: null }, deleted)).toThrow(
      NotFound,
    );
    expect(() => decideCat({ type: 'DeleteCat', actorId: 1, expectedVersion: null }, null)).toThrow(NotFound);
  });

  it('goes with its bodega whoever added it, and only with its own bodega', () => {
    const state = givenCat(catAdded);
    expect(decideCat({ type: 'DeleteCatWithBodega', bodegaId: 3 }, state)).toEqual([
      { type: 'CatDeleted', data: { cat_id: 7, bodega_id: 3 } },
    ]);
    expect(decideCat({ type: 'DeleteCatWithBodega', bodegaId: 4 }, state)).toEqual([]);
  });
});

describe('the bodega', () => {
  const edit = (text: Partial<BodegaFields>, extra: Record<string, unknown> = {}) =>
    ({
      type: 'EditBodega',
      actorId: 1,
      expectedVersion: null,
      text: { name: 'Sunny Deli', address: '1 Grand St', ...text },
      coordinates: null,
      geocoded: undefined,
      duplicateOf: null,
      ...extra,
    }) as const;

  it('is not added over another with the same name and address', () => {
    expect(() =>
      decideBodega(
        { type: 'AddBodega', bodegaId: 4, createdBy: 1, fields: bodegaFields, duplicateOf: 3 },
        null,
      ),
    ).toThrow(Conflict);
  });

  it('keeps its position when the address is only respelled', () => {
    const events = decideBodega(edit({ address: '1  GRAND st', phone: '555' }), givenBodega(bodegaAdded));
    expect(events[0]!.data).toMatchObject({ address: '1  GRAND st', latitude: 40.7, longitude: -73.9 });
  });

  it('takes the geocoder’s position for a new address, or none; never the old one', () => {
    const state = givenBodega(bodegaAdded);
    const found = decideBodega(
      edit({ address: '2 New St' }, { geocoded: { latitude: 40.6, longitude: -73.8 } }),
      state,
    );
    expect(found[0]!.data).toMatchObject({ latitude: 40.6, longitude: -73.8 });
    const unknown = decideBodega(edit({ address: '2 New St' }, { geocoded: null }), state);
    expect(unknown[0]!.data).toMatchObject({ latitude: null, longitude: null });
  });

  it('treats a new address nobody looked up as a concurrent change', () => {
    expect(() => decideBodega(edit({ address: '2 New St' }), givenBodega(bodegaAdded))).toThrow(
      ConcurrencyError,
    );
  });

  it('is verified once; verifying again changes nothing', () => {
    const verified = { type: 'BodegaVerified', data: { bodega_id: 3, is_verified: true } } as const;
    expect(decideBodega({ type: 'VerifyBodega', isVerified: true }, givenBodega(bodegaAdded))).toEqual([
      verified,
    ]);
    expect(
      decideBodega({ type: 'VerifyBodega', isVerified: true }, givenBodega(bodegaAdded, verified)),
    ).toEqual([]);
  });

  it('is deleted by its creator only', () => {
    const state = givenBodega(bodegaAdded);
    expect(() => decideBodega({ type: 'DeleteBodega', actorId: 2, expectedVersion: null }, state)).toThrow(
      Forbidden,
    );
    expect(decideBodega({ type: 'DeleteBodega', actorId: 1, expectedVersion: 1 }, state)).toEqual([
      { type: 'BodegaDeleted', data: { bodega_id: 3 } },
    ]);
  });
});
