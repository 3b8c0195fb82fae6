// A bodega moderation hid is not there for anyone but its creator and moderators, and that holds
// for the name-and-address lookup of "add cat" and "add bodega" too: a stranger who names it gets
// a new bodega of their own (nothing of the hidden one, and a cat nobody else is kept from
// seeing). A bodega's cat count is of the cats it shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../server/domains.ts';
import { replay } from '../../../server/events/replay.ts';
import { setRole } from '../../../server/moderation/roles.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { person, request, type Person } from '../../helpers/world.ts';

let t: TestApp;
let owner: Person;
let stranger: Person;
let moderator: Person;

beforeAll(async () => {
  t = await createTestApp();
  const people = await Promise.all(['owner', 'stranger', 'mod'].map((n) => person(t, n)));
  [owner, stranger, moderator] = people as [Person, Person, Person];
  await setRole(t.services, moderator.username, 'moderator');
});

afterAll(async () => {
  await t?.close();
});

function decide(type: string, id: number, action: 'hide' | 'restore') {
  return request(t, 'POST', `/api/moderation/${type}/${id}`, { as: moderator, body: { action } });
}

/** A bodega of the owner's, with text only it has, hidden by a moderator. */
async function hiddenBodega(label: string) {
  const shop = {
    name: `Shuttered Mart ${label}`,
    address: `${label.length + 40} Pell Street, New York, NY`,
    description: `Secret notes ${label}`,
    phone: '212-555-0199',
    latitude: 40.714,
    longitude: -73.998,
  };
  const res = await request(t, 'POST', '/api/bodegas', { as: owner, body: shop });
  expect(res.status).toBe(201);
  const id = res.body.bodega.id as number;
  expect((await decide('bodega', id, 'hide')).status).toBe(200);
  return { id, ...shop };
}

describe('adding a cat at a hidden bodega', () => {
  it('gives a stranger a new bodega of their own, with nothing of the hidden one, and the cat shows', async () => {
    const hidden = await hiddenBodega('Cat');
    const res = await request(t, 'POST', '/api/cats', {
      as: stranger,
      body: { name: 'Pepper', bodega_name: hidden.name, address: hidden.address },
    });
    expect(res.status).toBe(201);
    const bodega = res.body.bodega;
    expect(bodega.id).not.toBe(hidden.id);
    expect(bodega).toMatchObject({ name: hidden.name, description: '', phone: '', created_by: stranger.id });
    expect(JSON.stringify(res.body)).not.toContain(hidden.description);
    expect(res.body.cat.hidden).toBeUndefined();
    // Everyone else sees the new cat and its bodega; the hidden bodega stays a 404.
    const catId = res.body.cat.id as number;
    expect((await request(t, 'GET', `/api/cats/${catId}`)).status).toBe(200);
    expect((await request(t, 'GET', `/api/bodegas/${bodega.id}`)).body.bodega.cat_count).toBe(1);
    expect((await request(t, 'GET', `/api/bodegas/${hidden.id}`)).status).toBe(404);
    // A second cat by the same name and address joins the stranger's bodega, not the hidden one.
    const second = await request(t, 'POST', '/api/cats', {
      as: stranger,
      body: { name: 'Salt', bodega_name: hidden.name, address: hidden.address },
    });
    expect(second.body.bodega.id).toBe(bodega.id);
  });

  it("still puts its creator's and a moderator's cats in it, and tells them it is hidden", async () => {
    const hidden = await hiddenBodega('Own');
    for (const who of [owner, moderator]) {
      const res = await request(t, 'POST', '/api/cats', {
        as: who,
        body: { name: `Kept ${who.username}`, bodega_name: hidden.name, address: hidden.address },
      });
      expect(res.status).toBe(201);
      expect(res.body.bodega.id).toBe(hidden.id);
      expect(res.body.cat.hidden).toBe(true);
    }
  });

  it('lets a stranger add a bodega by the same name and address instead of answering 409', async () => {
    const hidden = await hiddenBodega('Shop');
    const res = await request(t, 'POST', '/api/bodegas', {
      as: stranger,
      body: { name: hidden.name, address: hidden.address },
    });
    expect(res.status).toBe(201);
    expect(res.body.bodega.id).not.toBe(hidden.id);
    // Whoever can see one by that name and address gets the duplicate's 409, naming a shown one
    // before a hidden one.
    const again = await request(t, 'POST', '/api/bodegas', {
      as: owner,
      body: { name: hidden.name, address: hidden.address },
    });
    expect(again.status).toBe(409);
    expect(again.body.details).toEqual({ bodega_id: res.body.bodega.id });
  });
});

describe("a bodega's cat count", () => {
  it('counts the cats it shows: a hidden cat leaves it, a restore brings it back, replay agrees', async () => {
    const shop = { bodega_name: 'Counting Deli', address: '7 Mott Street, New York, NY' };
    const cats: number[] = [];
    for (const name of ['Uno', 'Dos', 'Tres']) {
      const res = await request(t, 'POST', '/api/cats', { as: owner, body: { name, ...shop } });
      expect(res.status).toBe(201);
      cats.push(res.body.cat.id as number);
    }
    const bodegaId = (await request(t, 'GET', `/api/cats/${cats[0]}`)).body.cat.bodega_id as number;
    const page = async () => (await request(t, 'GET', `/api/bodegas/${bodegaId}`)).body;

    expect((await decide('cat', cats[0]!, 'hide')).status).toBe(200);
    expect((await decide('cat', cats[0]!, 'hide')).status).toBe(200);
    let seen = await page();
    expect(seen.bodega.cat_count).toBe(2);
    expect(seen.cats).toHaveLength(2);

    // Deleting a hidden cat does not take it off the count a second time.
    expect((await decide('cat', cats[1]!, 'hide')).status).toBe(200);
    expect((await request(t, 'DELETE', `/api/cats/${cats[1]}`, { as: owner })).status).toBe(200);
    seen = await page();
    expect(seen.bodega.cat_count).toBe(1);
    expect(seen.cats).toHaveLength(1);

    expect((await decide('cat', cats[0]!, 'restore')).status).toBe(200);
    seen = await page();
    expect(seen.bodega.cat_count).toBe(2);
    expect(seen.cats).toHaveLength(2);

    expect((await decide('cat', cats[2]!, 'hide')).status).toBe(200);
    const verified = await replay(t.services.database, projections, { verify: true });
    expect(verified.differences.find((d) => d.table === 'bodegas')).toMatchObject({ same: true });
    expect((await page()).bodega.cat_count).toBe(1);
  });
});
