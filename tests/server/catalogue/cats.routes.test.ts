import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { send, signUp, type Caller } from './signed-in.ts';
import type { Json } from '../../helpers/json.ts';

describe('cats', () => {
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

  /** A cat in a bodega of its own, added by `caller`. */
  async function addCat(caller: Caller, extra: Record<string, unknown> = {}) {
    shop += 1;
    const body = { name: `Cat ${shop}`, bodega_name: `Shop ${shop}`, address: `${shop} Test Ave`, ...extra };
    const res = await send(t, 'POST', '/api/cats', { body, caller });
    expect(res.status).toBe(201);
    return res.body as { cat: Record<string, Json>; bodega: Record<string, Json> };
  }

  async function viewsOf(caller: Caller) {
    return t.services.database.db
      .selectFrom('recently_viewed')
      .select(['target_type', 'target_id'])
      .where('user_id', '=', caller.id)
      .execute();
  }

  describe('adding', () => {
    it('adds a cat and a new bodega owned by the caller, in the contract envelope', async () => {
      const res = await send(t, 'POST', '/api/cats', {
        caller: alice,
        body: {
          name: 'Mango',
          bodega_name: 'Sunny Deli',
          address: '1 Grand St, Brooklyn, NY 11211',
          breed: 'Domestic Shorthair',
          sex: 'Male',
          age: '3 years',
          weight: '12 lbs',
          color: 'Orange tabby',
          personality: 'Lazy',
          description: 'Sleeps on the bread.',
        },
      });
      expect(res.status).toBe(201);
      expect(res.body.cat).toEqual({
        id: expect.any(Number),
        name: 'Mango',
        bodega_id: res.body.bodega.id,
        bodega_name: 'Sunny Deli',
        address: '1 Grand St, Brooklyn, NY 11211',
        latitude: null,
        longitude: null,
        description: 'Sleeps on the bread.',
        age: '3 years',
        breed: 'Domestic Shorthair',
        sex: 'Male',
        personality: 'Lazy',
        color: 'Orange tabby',
        weight: '12 lbs',
        is_friendly: true,
        rating: 0,
        review_count: 0,
        primary_photo: null,
        primary_thumb: null,
        created_by: alice.id,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        creator_username: 'alice',
        photos: [],
        version: 1,
        saved: false,
      });
      expect(res.body.bodega).toMatchObject({
        name: 'Sunny Deli',
        cat_count: 1,
        created_by: alice.id,
        is_verified: false,
        rating: 0,
      });
      expect(res.body.bodega).not.toHaveProperty('version');
    });

    it('leaves optional fields unset: no sex, friendly by default', async () => {
      const { cat } = await addCat(alice);
      expect(cat).toMatchObject({ sex: '', is_friendly: true, description: '', age: '', weight: '' });
    });

    it('finds the bodega by name and address, ignoring case and spacing', async () => {
      const first = await send(t, 'POST', '/api/cats', {
        caller: alice,
        body: { name: 'Pickles', bodega_name: "  Joe's  DELI ", address: '12 Main St' },
      });
      const second = await send(t, 'POST', '/api/cats', {
        caller: bob,
        body: { name: 'Relish', bodega_name: "joe's deli", address: '12  main st' },
      });
      expect(second.status).toBe(201);
      expect(second.body.bodega.id).toBe(first.body.bodega.id);
      expect(second.body.bodega.created_by).toBe(alice.id);
      expect(second.body.bodega.cat_count).toBe(2);
      expect(second.body.cat.bodega_name).toBe("Joe's  DELI");
    });

    it('creates one bodega when several cats of a new bodega arrive at once', async () => {
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map((n) =>
          send(t, 'POST', '/api/cats', {
            caller: n % 2 ? alice : bob,
            body: { name: `Twin ${n}`, bodega_name: 'Race Deli', address: `77 Race St` },
          }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
      expect(new Set(results.map((r) => r.body.bodega.id)).size).toBe(1);
      const bodega = await send(t, 'GET', `/api/bodegas/${results[0]!.body.bodega.id}`);
      expect(bodega.body.bodega.cat_count).toBe(5);
      expect(bodega.body.cats).toHaveLength(5);
    });

    it('uses the coordinates in the body for a new bodega and its cat', async () => {
      const { cat, bodega } = await addCat(alice, { latitude: 40.7081, longitude: -73.9571 });
      expect([cat.latitude, cat.longitude]).toEqual([40.7081, -73.9571]);
      expect([bodega.latitude, bodega.longitude]).toEqual([40.7081, -73.9571]);
    });

    it('keeps coordinates unknown when none are given and no geocoder is configured', async () => {
      const { cat, bodega } = await addCat(alice);
      expect([cat.latitude, cat.longitude, bodega.latitude, bodega.longitude]).toEqual([
        null,
        null,
        null,
        null,
      ]);
    });

    it('stores text as given, without escaping', async () => {
      const name = `<b>Tom & "Jerry"</b> 'n' café 🐈`;
      const { cat } = await addCat(alice, { name: `  ${name} `, description: '<script>x</script>' });
      expect(cat.name).toBe(name);
      expect(cat.description).toBe('<script>x</script>');
      expect((await send(t, 'GET', `/api/cats/${cat.id}`)).body.cat.name).toBe(name);
    });

    it('needs a signed-in caller', async () => {
      const res = await send(t, 'POST', '/api/cats', { body: { name: 'A', bodega_name: 'B', address: 'C' } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.any(String), code: 'unauthorized' });
    });

    it('returns the first result for a retried request with the same Idempotency-Key', async () => {
      const body = { name: 'Once', bodega_name: 'Retry Deli', address: '5 Retry Rd' };
      const headers = { 'idempotency-key': 'add-once-1' };
      const first = await send(t, 'POST', '/api/cats', { body, caller: alice, headers });
      const again = await send(t, 'POST', '/api/cats', { body, caller: alice, headers });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      const bodega = await send(t, 'GET', `/api/bodegas/${first.body.bodega.id}`);
      expect(bodega.body.cats).toHaveLength(1);
    });
  });

  describe('rejecting bad input', () => {
    const valid = { name: 'Ok', bodega_name: 'Ok Deli', address: '1 Ok St' };
    const cases: [string, Record<string, unknown>, string][] = [
      ['a missing name', { bodega_name: 'x', address: 'y' }, 'name'],
      ['a blank name', { ...valid, name: '   ' }, 'name'],
      ['a blank bodega name', { ...valid, bodega_name: '\t' }, 'bodega_name'],
      ['an empty address', { ...valid, address: '' }, 'address'],
      ['an unknown sex', { ...valid, sex: 'male' }, 'sex'],
      ['a name over 100 characters', { ...valid, name: 'x'.repeat(101) }, 'name'],
      ['an address over 200 characters', { ...valid, address: 'x'.repeat(201) }, 'address'],
      ['a description over 2000 characters', { ...valid, description: 'x'.repeat(2001) }, 'description'],
      ['a breed over 100 characters', { ...valid, breed: 'x'.repeat(101) }, 'breed'],
      ['an age over 50 characters', { ...valid, age: 'x'.repeat(51) }, 'age'],
      ['a weight that is a number', { ...valid, weight: 12 }, 'weight'],
      ['is_friendly as text', { ...valid, is_friendly: 'yes' }, 'is_friendly'],
      ['a latitude as text', { ...valid, latitude: '40.7', longitude: -73.9 }, 'latitude'],
      ['a latitude above 90', { ...valid, latitude: 90.5, longitude: -73.9 }, 'latitude'],
      ['a longitude below -180', { ...valid, latitude: 40.7, longitude: -180.1 }, 'longitude'],
      ['a latitude without a longitude', { ...valid, latitude: 40.7 }, 'longitude'],
      ['a longitude without a latitude', { ...valid, latitude: null, longitude: -73.9 }, 'latitude'],
      ['an unknown key', { ...valid, owner: 'me' }, 'owner'],
      ['a NUL character', { ...valid, color: 'gr\u0000ay' }, 'color'],
    ];
    it.each(cases)('rejects %s with a 400 naming the field', async (_, body, field) => {
      const before = await t.services.database.db.selectFrom('events').select('global_position').execute();
      const res = await send(t, 'POST', '/api/cats', { body, caller: alice });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: expect.any(String), code: 'invalid_input' });
      expect(Object.keys(res.body.details)).toContain(field);
      const after = await t.services.database.db.selectFrom('events').select('global_position').execute();
      expect(after.length).toBe(before.length);
    });

    it('rejects a body that is not JSON with a 400', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/cats',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
        payload: '{"name": ',
      });
      expect(res.statusCode).toBe(400);
    });
  });

  describe('reading', () => {
    it('answers unknown and non-integer ids with a 404', async () => {
      for (const id of ['999999', 'abc', '1.5', '-1', '0', '1e3', '99999999999999999999']) {
        const res = await send(t, 'GET', `/api/cats/${id}`);
        expect(res.status, id).toBe(404);
        expect(res.body).toEqual({ error: 'Cat not found', code: 'not_found' });
      }
    });

    it('shows the cat with its bodega, with or without a trailing slash', async () => {
      const { cat, bodega } = await addCat(alice);
      const res = await send(t, 'GET', `/api/cats/${cat.id}/`);
      expect(res.status).toBe(200);
      expect(res.body.cat).toEqual(cat);
      expect(res.body.bodega).toEqual(bodega);
    });

    it('records a recently viewed entry for a signed-in reader only', async () => {
      const { cat } = await addCat(alice);
      await send(t, 'GET', `/api/cats/${cat.id}`);
      expect(await viewsOf(bob)).toEqual([]);
      await send(t, 'GET', `/api/cats/${cat.id}`, { caller: bob });
      expect(await viewsOf(bob)).toEqual([{ target_type: 'cat', target_id: cat.id }]);
    });
  });

  describe('editing', () => {
    const edit = { name: 'Renamed', breed: 'Maine Coon', sex: 'Female', is_friendly: false };

    it('lets the creator edit; fields left out keep their values; the version moves on', async () => {
      const { cat } = await addCat(alice, { color: 'Black', description: 'Old' });
      const res = await send(t, 'PUT', `/api/cats/${cat.id}`, { caller: alice, body: edit });
      expect(res.status).toBe(200);
      expect(res.body.cat).toMatchObject({ ...edit, color: 'Black', description: 'Old', version: 2 });
      expect(res.body.bodega.id).toBe(cat.bodega_id);
      expect((await send(t, 'GET', `/api/cats/${cat.id}`)).body.cat).toEqual(res.body.cat);
    });

    it('changes nothing, not even the version, for an edit that changes nothing', async () => {
      const { cat } = await addCat(alice);
      const res = await send(t, 'PUT', `/api/cats/${cat.id}`, { caller: alice, body: { name: cat.name } });
      expect(res.body.cat.version).toBe(1);
    });

    it('forbids others (403) and signed-out callers (401)', async () => {
      const { cat } = await addCat(alice);
      const other = await send(t, 'PUT', `/api/cats/${cat.id}`, { caller: bob, body: edit });
      expect(other.status).toBe(403);
      expect(other.body).toEqual({ error: 'You can only edit cats that you created.', code: 'forbidden' });
      expect((await send(t, 'PUT', `/api/cats/${cat.id}`, { body: edit })).status).toBe(401);
      expect((await send(t, 'GET', `/api/cats/${cat.id}`)).body.cat.name).toBe(cat.name);
    });

    it('answers an unknown cat with a 404', async () => {
      expect((await send(t, 'PUT', '/api/cats/987654', { caller: alice, body: edit })).status).toBe(404);
      expect((await send(t, 'PUT', '/api/cats/nope', { caller: alice, body: edit })).status).toBe(404);
    });

    it('accepts a current If-Match and refuses a stale one with a 409', async () => {
      const { cat } = await addCat(alice);
      const first = await send(t, 'PUT', `/api/cats/${cat.id}`, {
        caller: alice,
        body: { name: 'First' },
        headers: { 'if-match': '1' },
      });
      expect(first.status).toBe(200);
      const stale = await send(t, 'PUT', `/api/cats/${cat.id}`, {
        caller: alice,
        body: { name: 'Second' },
        headers: { 'if-match': '1' },
      });
      expect(stale.status).toBe(409);
      expect(stale.body.code).toBe('version_conflict');
      const quoted = await send(t, 'PUT', `/api/cats/${cat.id}`, {
        caller: alice,
        body: { name: 'Second' },
        headers: { 'if-match': '"2"' },
      });
      expect(quoted.body.cat).toMatchObject({ name: 'Second', version: 3 });
    });

    it('rejects a malformed If-Match with a 400', async () => {
      const { cat } = await addCat(alice);
      const res = await send(t, 'PUT', `/api/cats/${cat.id}`, {
        caller: alice,
        body: { name: 'X' },
        headers: { 'if-match': 'yesterday' },
      });
      expect(res.status).toBe(400);
      expect(res.body.details).toHaveProperty('If-Match');
    });

    it('rejects bodega fields, unknown keys and a blank name', async () => {
      const { cat } = await addCat(alice);
      for (const body of [
        { name: 'X', address: 'Elsewhere' },
        { name: 'X', bodega_name: 'Y' },
        { name: ' ' },
      ]) {
        expect((await send(t, 'PUT', `/api/cats/${cat.id}`, { caller: alice, body })).status).toBe(400);
      }
    });
  });

  describe('deleting', () => {
    it('lets the creator delete: the cat is gone, its bodega has one cat fewer', async () => {
      const { cat, bodega } = await addCat(alice);
      await send(t, 'POST', '/api/cats', {
        caller: bob,
        body: { name: 'Stays', bodega_name: bodega.name, address: bodega.address },
      });
      const res = await send(t, 'DELETE', `/api/cats/${cat.id}`, { caller: alice });
      expect(res).toMatchObject({ status: 200, body: { message: expect.any(String) } });
      expect((await send(t, 'GET', `/api/cats/${cat.id}`)).status).toBe(404);
      const after = await send(t, 'GET', `/api/bodegas/${bodega.id}`);
      expect(after.body.bodega.cat_count).toBe(1);
      expect(after.body.cats.map((c: { name: string }) => c.name)).toEqual(['Stays']);
      expect((await send(t, 'DELETE', `/api/cats/${cat.id}`, { caller: alice })).status).toBe(404);
    });

    it('forbids others (403) and signed-out callers (401)', async () => {
      const { cat } = await addCat(alice);
      const other = await send(t, 'DELETE', `/api/cats/${cat.id}`, { caller: bob });
      expect(other.status).toBe(403);
      expect(other.body.error).toBe('You can only delete cats that you created.');
      expect((await send(t, 'DELETE', `/api/cats/${cat.id}`)).status).toBe(401);
      expect((await send(t, 'GET', `/api/cats/${cat.id}`)).status).toBe(200);
    });

    it('refuses a stale If-Match with a 409', async () => {
      const { cat } = await addCat(alice);
      await send(t, 'PUT', `/api/cats/${cat.id}`, { caller: alice, body: { name: 'Moved on' } });
      const stale = await send(t, 'DELETE', `/api/cats/${cat.id}`, {
        caller: alice,
        headers: { 'if-match': '1' },
      });
      expect(stale.status).toBe(409);
      expect((await send(t, 'GET', `/api/cats/${cat.id}`)).status).toBe(200);
    });

    it('drops the cat from everyone’s recently viewed', async () => {
      const { cat } = await addCat(alice);
      await send(t, 'GET', `/api/cats/${cat.id}`, { caller: bob });
      expect(await viewsOf(bob)).toContainEqual({ target_type: 'cat', target_id: cat.id });
      await send(t, 'DELETE', `/api/cats/${cat.id}`, { caller: alice });
      expect(await viewsOf(bob)).not.toContainEqual({ target_type: 'cat', target_id: cat.id });
    });
  });
});
