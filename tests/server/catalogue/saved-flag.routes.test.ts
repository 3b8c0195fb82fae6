// `saved` on the detail responses: true only for a signed-in caller who saved that very item.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { send, signUp, type Caller } from './signed-in.ts';

describe('saved on detail responses', () => {
  let t: TestApp;
  let alice: Caller;
  let bob: Caller;
  let shop = 0;
  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    alice = await signUp(t, 'alice');
    bob = await signUp(t, 'bob');
  });
  afterAll(async () => t.close());

  /** A cat in a bodega of its own, added by `caller`; answers both ids. */
  async function addCat(caller: Caller) {
    shop += 1;
    const body = { name: `Cat ${shop}`, bodega_name: `Shop ${shop}`, address: `${shop} Saved Ave` };
    const res = await send(t, 'POST', '/api/cats', { body, caller });
    expect(res.status).toBe(201);
    return { catId: res.body.cat.id as number, bodegaId: res.body.bodega.id as number };
  }

  async function save(caller: Caller, path: string, saved: boolean) {
    const res = await send(t, saved ? 'POST' : 'DELETE', `${path}/save`, { caller });
    expect(res).toMatchObject({ status: 200, body: { saved } });
  }

  async function catSaved(id: number, caller?: Caller): Promise<unknown> {
    const res = await send(t, 'GET', `/api/cats/${id}`, { caller });
    expect(res.status).toBe(200);
    return res.body.cat.saved;
  }

  async function bodegaSaved(id: number, caller?: Caller): Promise<unknown> {
    const res = await send(t, 'GET', `/api/bodegas/${id}`, { caller });
    expect(res.status).toBe(200);
    return res.body.bodega.saved;
  }

  it('is true for the user who saved a cat, false for another user and when signed out', async () => {
    const { catId } = await addCat(bob);
    expect(await catSaved(catId, alice)).toBe(false);
    await save(alice, `/api/cats/${catId}`, true);
    expect(await catSaved(catId, alice)).toBe(true);
    expect(await catSaved(catId, bob)).toBe(false);
    expect(await catSaved(catId)).toBe(false);
  });

  it('is false again after the cat is unsaved', async () => {
    const { catId } = await addCat(bob);
    await save(alice, `/api/cats/${catId}`, true);
    await save(alice, `/api/cats/${catId}`, false);
    expect(await catSaved(catId, alice)).toBe(false);
  });

  it('is true for the user who saved a bodega, false for another user, signed out and after unsaving', async () => {
    const { bodegaId } = await addCat(bob);
    await save(alice, `/api/bodegas/${bodegaId}`, true);
    expect(await bodegaSaved(bodegaId, alice)).toBe(true);
    expect(await bodegaSaved(bodegaId, bob)).toBe(false);
    expect(await bodegaSaved(bodegaId)).toBe(false);
    await save(alice, `/api/bodegas/${bodegaId}`, false);
    expect(await bodegaSaved(bodegaId, alice)).toBe(false);
  });

  it('tells a saved bodega from its cats, and a saved cat from its bodega', async () => {
    const first = await addCat(bob);
    const second = await addCat(bob);
    await save(alice, `/api/bodegas/${first.bodegaId}`, true);
    await save(alice, `/api/cats/${second.catId}`, true);
    expect(await catSaved(first.catId, alice)).toBe(false);
    expect(await bodegaSaved(second.bodegaId, alice)).toBe(false);
  });

  it('is answered on the responses of adding and editing, for the caller', async () => {
    const added = await send(t, 'POST', '/api/cats', {
      caller: alice,
      body: { name: 'Biscuit', bodega_name: 'Edit Deli', address: '5 Edit St' },
    });
    expect(added.status).toBe(201);
    expect(added.body.cat.saved).toBe(false);
    const { id: catId } = added.body.cat;
    const { id: bodegaId } = added.body.bodega;
    await save(alice, `/api/cats/${catId}`, true);
    await save(alice, `/api/bodegas/${bodegaId}`, true);

    const catEdit = await send(t, 'PUT', `/api/cats/${catId}`, {
      caller: alice,
      body: {
        name: 'Biscuit II',
        description: '',
        age: '',
        breed: '',
        sex: '',
        personality: '',
        color: '',
        weight: '',
        is_friendly: true,
      },
    });
    expect(catEdit.status).toBe(200);
    expect(catEdit.body.cat).toMatchObject({ name: 'Biscuit II', saved: true });

    const bodegaEdit = await send(t, 'PUT', `/api/bodegas/${bodegaId}`, {
      caller: alice,
      body: { name: 'Edit Deli', address: '5 Edit St', hours: 'Always' },
    });
    expect(bodegaEdit.status).toBe(200);
    expect(bodegaEdit.body.bodega).toMatchObject({ hours: 'Always', saved: true });

    const newBodega = await send(t, 'POST', '/api/bodegas', {
      caller: alice,
      body: { name: 'Fresh Deli', address: '6 Edit St' },
    });
    expect(newBodega.status).toBe(201);
    expect(newBodega.body.bodega.saved).toBe(false);
  });
});
