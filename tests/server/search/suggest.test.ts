import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { addBodega, addCat, catFields, deleteBodega, deleteCat, updateBodega, updateCat } from './fixture.ts';

type Suggestion = { kind: string; label: string; id?: number; detail?: string };

describe('GET /api/search/suggest', () => {
  let t: TestApp;
  let deli: number;
  let mozzarella: number;
  const suggest = async (query: string) => {
    const res = await call(t.app, 'GET', `/api/search/suggest?${query}`);
    expect(res.status, query).toBe(200);
    return res.body.suggestions as Suggestion[];
  };
  const labels = async (query: string) => (await suggest(query)).map((s) => `${s.kind}:${s.label}`);

  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    deli = await addBodega(t.services, { name: 'Mozzarella Deli', address: '5 Mulberry St, New York, NY' });
    const other = await addBodega(t.services, { name: 'Corner Stop', address: '9 Mozart Ave, Bronx, NY' });
    mozzarella = await addCat(t.services, deli, {
      name: 'Mozzarella',
      breed: 'Maine Coon',
      personality: 'Moody',
    });
    await addCat(t.services, other, {
      name: 'Biscuit',
      breed: 'Mixed',
      personality: 'Mozzy',
      description: 'loves mozzarella',
    });
    await addCat(t.services, other, { name: 'Pepper', breed: 'Tabby', personality: 'Curious' });
  });
  afterAll(async () => t.close());

  it('suggests names from the start of a word, with their detail and id', async () => {
    const found = await suggest('q=mozz');
    expect(found).toContainEqual({
      kind: 'cat',
      label: 'Mozzarella',
      id: mozzarella,
      detail: 'Mozzarella Deli',
    });
    expect(found).toContainEqual({
      kind: 'bodega',
      label: 'Mozzarella Deli',
      id: deli,
      detail: '5 Mulberry St, New York, NY',
    });
    expect(found).toContainEqual({ kind: 'personality', label: 'Mozzy' });
    // A description or address that mentions it is not a name: Biscuit and Corner Stop stay out.
    expect(found.map((s) => s.label)).not.toContain('Biscuit');
    expect(found.map((s) => s.label)).not.toContain('Corner Stop');
  });

  it('tolerates a typo', async () => {
    expect(await labels('q=mozarela')).toContain('cat:Mozzarella');
    expect(await labels('q=main%20con')).toContain('breed:Maine Coon');
  });

  it('puts an exact name first, then names that start with the query', async () => {
    expect((await labels('q=mozzarella')).slice(0, 2)).toEqual(['cat:Mozzarella', 'bodega:Mozzarella Deli']);
    expect((await labels('q=Mozzarella%20Deli'))[0]).toBe('bodega:Mozzarella Deli');
  });

  it('keeps to the kinds and the limit asked for', async () => {
    expect((await suggest('q=mozz&type=bodegas')).map((s) => s.kind)).toEqual(['bodega']);
    expect(new Set((await suggest('q=mozz&type=cats')).map((s) => s.kind))).not.toContain('bodega');
    expect(await suggest('q=mozz&limit=1')).toHaveLength(1);
  });

  it('refuses an empty or oversized query and bad options with 400', async () => {
    for (const query of [
      'q=',
      '',
      `q=${'a'.repeat(101)}`,
      'q=mo&limit=0',
      'q=mo&limit=21',
      'q=mo&type=people',
    ]) {
      const res = await call(t.app, 'GET', `/api/search/suggest?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    }
  });

  it('treats wildcards and SQL as plain text', async () => {
    for (const q of ['%', '_', "' or 1=1 --", 'mozz%', '\\', ':*', '&|!']) {
      const res = await call(t.app, 'GET', `/api/search/suggest?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(
        res.body.suggestions.every((s: Suggestion) => /mozz/i.test(s.label)),
        q,
      ).toBe(true);
    }
  });

  it('follows the catalogue at once: added, renamed and deleted cats', async () => {
    const added = await addCat(t.services, deli, { name: 'Zucchini' });
    expect(await labels('q=zucc')).toEqual(['cat:Zucchini']);
    await updateCat(t.services, added, catFields({ name: 'Zinnia' }));
    expect(await labels('q=zucc')).toEqual([]);
    expect(await labels('q=zinn')).toEqual(['cat:Zinnia']);
    await deleteCat(t.services, added, deli);
    expect(await labels('q=zinn')).toEqual([]);
  });

  it('follows the catalogue at once: added, renamed and deleted bodegas', async () => {
    const address = '1 Quince St, Brooklyn, NY';
    const added = await addBodega(t.services, { name: 'Quokka Grocery', address });
    expect(await suggest('q=quok')).toEqual([
      { kind: 'bodega', label: 'Quokka Grocery', id: added, detail: address },
    ]);
    await updateBodega(t.services, added, { name: 'Quetzal Grocery', address });
    expect(await labels('q=quok')).toEqual([]);
    expect(await labels('q=quetz')).toEqual(['bodega:Quetzal Grocery']);
    await deleteBodega(t.services, added);
    expect(await labels('q=quetz')).toEqual([]);
  });

  it('follows the catalogue at once: breeds and personalities come and go with their cats', async () => {
    const cat = await addCat(t.services, deli, { name: 'Rex', breed: 'Sokoke', personality: 'Serene' });
    expect(await labels('q=soko')).toEqual(['breed:Sokoke']);
    expect(await labels('q=seren')).toEqual(['personality:Serene']);
    await updateCat(t.services, cat, catFields({ name: 'Rex', breed: 'Savannah', personality: 'Serene' }));
    expect(await labels('q=soko')).toEqual([]);
    expect(await labels('q=savan')).toEqual(['breed:Savannah']);
    await deleteCat(t.services, cat, deli);
    expect(await labels('q=savan')).toEqual([]);
    expect(await labels('q=seren')).toEqual([]);
  });
});
