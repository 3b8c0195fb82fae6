import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { send, signUp, type Caller } from './signed-in.ts';
import type { Json } from '../../helpers/json.ts';

describe('bodegas', () => {
  let t: TestApp;
  let alice: Caller;
  let bob: Caller;
  let shop = 0;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await signUp(t, 'alice');
    bob = await signUp(t, 'bob');
  });
  afterAll(async () => t.close());

  async function addBodega(caller: Caller, extra: Record<string, unknown> = {}) {
    shop += 1;
    const body = { name: `Bodega ${shop}`, address: `${shop} Bodega Blvd`, ...extra };
    const res = await send(t, 'POST', '/api/bodegas', { body, caller });
    expect(res.status).toBe(201);
    return res.body.bodega as Record<string, Json>;
  }

  async function addCatTo(caller: Caller, bodega: Record<string, Json>, name: string) {
    const body = { name, bodega_name: bodega.name, address: bodega.address };
    const res = await send(t, 'POST', '/api/cats', { body, caller });
    expect(res.status).toBe(201);
    expect(res.body.bodega.id).toBe(bodega.id);
    return res.body.cat as Record<string, Json>;
  }

  describe('adding', () => {
    it('adds a bodega owned by the caller, with no cats yet', async () => {
      const res = await send(t, 'POST', '/api/bodegas', {
        caller: alice,
        body: {
          name: 'Lucky Star Deli',
          address: '200 Avenue A, New York, NY 10009',
          description: 'Open late.',
          phone: '(212) 555-0100',
          hours: 'Open 24 hours',
          latitude: 40.7265,
          longitude: -73.9815,
        },
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        bodega: {
          id: expect.any(Number),
          name: 'Lucky Star Deli',
          address: '200 Avenue A, New York, NY 10009',
          latitude: 40.7265,
          longitude: -73.9815,
          description: 'Open late.',
          phone: '(212) 555-0100',
          hours: 'Open 24 hours',
          cat_count: 0,
          rating: 0,
          review_count: 0,
          is_verified: false,
          primary_photo: null,
          primary_thumb: null,
          created_by: alice.id,
          created_at: expect.stringMatching(/Z$/),
          creator_username: 'alice',
          photos: [],
          version: 1,
          saved: false,
        },
        cats: [],
      });
    });

    it('refuses a second bodega with the same name and address (409)', async () => {
      const bodega = await addBodega(alice);
      const res = await send(t, 'POST', '/api/bodegas', {
        caller: bob,
        body: { name: ` ${bodega.name.toUpperCase()} `, address: bodega.address.toLowerCase() },
      });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'duplicate_bodega', details: { bodega_id: bodega.id } });
    });

    it('rejects invalid input with a 400 naming the field', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ address: '1 A St' }, 'name'],
        [{ name: 'X', address: '  ' }, 'address'],
        [{ name: 'X', address: '1 A St', phone: 'x'.repeat(41) }, 'phone'],
        [{ name: 'X', address: '1 A St', hours: 'x'.repeat(201) }, 'hours'],
        [{ name: 'X', address: '1 A St', latitude: -91, longitude: 0 }, 'latitude'],
        [{ name: 'X', address: '1 A St', latitude: 0, longitude: 181 }, 'longitude'],
        [{ name: 'X', address: '1 A St', longitude: 10 }, 'latitude'],
        [{ name: 'X', address: '1 A St', cat_count: 3 }, 'cat_count'],
        [{ name: 'X', address: '1 A St', is_verified: true }, 'is_verified'],
      ];
      for (const [body, field] of cases) {
        const res = await send(t, 'POST', '/api/bodegas', { caller: alice, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(Object.keys(res.body.details)).toContain(field);
      }
    });

    it('needs a signed-in caller', async () => {
      expect((await send(t, 'POST', '/api/bodegas', { body: { name: 'X', address: 'Y' } })).status).toBe(401);
    });
  });

  describe('reading', () => {
    it('shows the bodega with its cats, oldest first', async () => {
      const bodega = await addBodega(alice);
      await addCatTo(alice, bodega, 'First');
      await addCatTo(bob, bodega, 'Second');
      const res = await send(t, 'GET', `/api/bodegas/${bodega.id}`);
      expect(res.status).toBe(200);
      expect(res.body.bodega).toMatchObject({ id: bodega.id, cat_count: 2, version: 1 });
      expect(res.body.cats.map((c: { name: string }) => c.name)).toEqual(['First', 'Second']);
      expect(res.body.cats[1]).toMatchObject({ bodega_id: bodega.id, created_by: bob.id });
      expect(res.body.cats[1]).not.toHaveProperty('photos');
    });

    it('answers unknown and non-integer ids with a 404', async () => {
      for (const id of ['424242', 'x', '2.0', '%20']) {
        const res = await send(t, 'GET', `/api/bodegas/${id}`);
        expect(res.status, id).toBe(404);
        expect(res.body).toEqual({ error: 'Bodega not found', code: 'not_found' });
      }
    });

    it('records a recently viewed entry for a signed-in reader', async () => {
      const bodega = await addBodega(alice);
      await send(t, 'GET', `/api/bodegas/${bodega.id}`, { caller: bob });
      const views = await t.services.database.db
        .selectFrom('recently_viewed')
        .select(['target_type', 'target_id'])
        .where('user_id', '=', bob.id)
        .execute();
      expect(views).toContainEqual({ target_type: 'bodega', target_id: bodega.id });
    });
  });

  describe('editing', () => {
    it('lets the creator edit; its cats show the new name and address', async () => {
      const bodega = await addBodega(alice, { phone: '555', latitude: 40.7, longitude: -73.9 });
      await addCatTo(bob, bodega, 'Resident');
      const res = await send(t, 'PUT', `/api/bodegas/${bodega.id}`, {
        caller: alice,
        body: { name: 'New Name', address: bodega.address, hours: '9-5' },
      });
      expect(res.status).toBe(200);
      expect(res.body.bodega).toMatchObject({
        name: 'New Name',
        phone: '555',
        hours: '9-5',
        latitude: 40.7,
        longitude: -73.9,
        version: 2,
      });
      expect(res.body.cats[0]).toMatchObject({ name: 'Resident', bodega_name: 'New Name' });
    });

    it('takes coordinates from the body, and its cats move with it', async () => {
      const bodega = await addBodega(alice);
      await addCatTo(alice, bodega, 'Mover');
      const res = await send(t, 'PUT', `/api/bodegas/${bodega.id}`, {
        caller: alice,
        body: { name: bodega.name, address: '9 New Pl', latitude: 40.65, longitude: -73.95 },
      });
      expect(res.body.bodega).toMatchObject({ address: '9 New Pl', latitude: 40.65, longitude: -73.95 });
      expect(res.body.cats[0]).toMatchObject({ address: '9 New Pl', latitude: 40.65, longitude: -73.95 });
    });

    it('forgets the coordinates of a moved bodega it cannot geocode, and keeps them otherwise', async () => {
      const bodega = await addBodega(alice, { latitude: 40.7, longitude: -73.9 });
      const sameAddress = await send(t, 'PUT', `/api/bodegas/${bodega.id}`, {
        caller: alice,
        body: { name: bodega.name, address: `  ${bodega.address.toUpperCase()}` },
      });
      expect(sameAddress.body.bodega).toMatchObject({ latitude: 40.7, longitude: -73.9 });
      const moved = await send(t, 'PUT', `/api/bodegas/${bodega.id}`, {
        caller: alice,
        body: { name: bodega.name, address: '1 Somewhere Else' },
      });
      expect(moved.body.bodega).toMatchObject({
        address: '1 Somewhere Else',
        latitude: null,
        longitude: null,
      });
    });

    it('refuses a rename onto another bodega’s name and address (409)', async () => {
      const mine = await addBodega(alice);
      const theirs = await addBodega(bob);
      const res = await send(t, 'PUT', `/api/bodegas/${mine.id}`, {
        caller: alice,
        body: { name: theirs.name, address: theirs.address },
      });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('duplicate_bodega');
    });

    it('forbids others (403) and signed-out callers (401); unknown is 404', async () => {
      const bodega = await addBodega(alice);
      const body = { name: 'Taken over', address: bodega.address };
      const other = await send(t, 'PUT', `/api/bodegas/${bodega.id}`, { caller: bob, body });
      expect(other.status).toBe(403);
      expect(other.body.error).toBe('You can only edit bodegas that you created.');
      expect((await send(t, 'PUT', `/api/bodegas/${bodega.id}`, { body })).status).toBe(401);
      expect((await send(t, 'PUT', '/api/bodegas/31337', { caller: alice, body })).status).toBe(404);
    });

    it('refuses a stale If-Match with a 409 and accepts the current one', async () => {
      const bodega = await addBodega(alice);
      const body = { name: bodega.name, address: bodega.address, description: 'v2' };
      const ok = await send(t, 'PUT', `/api/bodegas/${bodega.id}`, {
        caller: alice,
        body,
        headers: { 'if-match': '1' },
      });
      expect(ok.body.bodega.version).toBe(2);
      const stale = await send(t, 'PUT', `/api/bodegas/${bodega.id}`, {
        caller: alice,
        body: { ...body, description: 'v3' },
        headers: { 'if-match': '1' },
      });
      expect(stale.status).toBe(409);
      expect((await send(t, 'GET', `/api/bodegas/${bodega.id}`)).body.bodega.description).toBe('v2');
    });
  });

  describe('deleting', () => {
    it('deletes the bodega and every cat in it, whoever added them; saved lists still load', async () => {
      const bodega = await addBodega(alice);
      const own = await addCatTo(alice, bodega, 'Own');
      const guest = await addCatTo(bob, bodega, 'Guest');
      for (const path of [`/api/cats/${guest.id}`, `/api/bodegas/${bodega.id}`]) {
        expect((await send(t, 'GET', path, { caller: bob })).status).toBe(200);
        expect((await send(t, 'POST', `${path}/save`, { caller: bob })).status).toBe(200);
      }

      const res = await send(t, 'DELETE', `/api/bodegas/${bodega.id}`, { caller: alice });
      expect(res).toMatchObject({ status: 200, body: { message: expect.any(String) } });

      for (const path of [`/api/bodegas/${bodega.id}`, `/api/cats/${own.id}`, `/api/cats/${guest.id}`])
        expect((await send(t, 'GET', path)).status, path).toBe(404);
      const savedCats = await send(t, 'GET', '/api/users/savedcats', { caller: bob });
      expect(savedCats.status).toBe(200);
      expect(savedCats.body.saved_cats).toEqual([]);
      const savedBodegas = await send(t, 'GET', '/api/users/savedbodegas', { caller: bob });
      expect(savedBodegas.status).toBe(200);
      expect(savedBodegas.body.saved_bodegas).toEqual([]);
      const views = await t.services.database.db
        .selectFrom('recently_viewed')
        .selectAll()
        .where('user_id', '=', bob.id)
        .where((eb) =>
          eb.or([
            eb.and([eb('target_type', '=', 'bodega'), eb('target_id', '=', bodega.id)]),
            eb.and([eb('target_type', '=', 'cat'), eb('target_id', '=', guest.id)]),
          ]),
        )
        .execute();
      expect(views).toEqual([]);
    });

    it('appends the cats’ deletions before the bodega’s, in one transaction', async () => {
      const bodega = await addBodega(alice);
      await addCatTo(alice, bodega, 'A');
      await addCatTo(bob, bodega, 'B');
      await send(t, 'DELETE', `/api/bodegas/${bodega.id}`, { caller: alice });
      const events = await t.services.database.db
        .selectFrom('events')
        .select(['type', 'transaction_id'])
        .where('type', 'in', ['CatDeleted', 'BodegaDeleted'])
        .orderBy('global_position', 'desc')
        .limit(3)
        .execute();
      expect(events.map((e) => e.type).reverse()).toEqual(['CatDeleted', 'CatDeleted', 'BodegaDeleted']);
      expect(new Set(events.map((e) => String(e.transaction_id))).size).toBe(1);
    });

    it('forbids others, even those with a cat in it (403); signed out is 401', async () => {
      const bodega = await addBodega(alice);
      const guest = await addCatTo(bob, bodega, 'Guest');
      expect((await send(t, 'DELETE', `/api/bodegas/${bodega.id}`, { caller: bob })).status).toBe(403);
      expect((await send(t, 'DELETE', `/api/bodegas/${bodega.id}`)).status).toBe(401);
      expect((await send(t, 'GET', `/api/cats/${guest.id}`)).status).toBe(200);
      expect((await send(t, 'GET', `/api/bodegas/${bodega.id}`)).body.bodega.cat_count).toBe(1);
    });

    it('refuses a stale If-Match with a 409 and deletes nothing', async () => {
      const bodega = await addBodega(alice);
      const cat = await addCatTo(alice, bodega, 'Survivor');
      await send(t, 'PUT', `/api/bodegas/${bodega.id}`, {
        caller: alice,
        body: { name: bodega.name, address: bodega.address, phone: '1' },
      });
      const res = await send(t, 'DELETE', `/api/bodegas/${bodega.id}`, {
        caller: alice,
        headers: { 'if-match': '1' },
      });
      expect(res.status).toBe(409);
      expect((await send(t, 'GET', `/api/cats/${cat.id}`)).status).toBe(200);
    });

    it('lets a cat of a deleted bodega’s name and address start a new bodega', async () => {
      const bodega = await addBodega(alice);
      await send(t, 'DELETE', `/api/bodegas/${bodega.id}`, { caller: alice });
      const res = await send(t, 'POST', '/api/cats', {
        caller: bob,
        body: { name: 'Newcomer', bodega_name: bodega.name, address: bodega.address },
      });
      expect(res.status).toBe(201);
      expect(res.body.bodega.id).not.toBe(bodega.id);
      expect(res.body.bodega).toMatchObject({ created_by: bob.id, cat_count: 1 });
    });
  });
});
