import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { buildWorld } from './fixture.ts';

type Named = { name: string };
const sorted = (items: Named[]) => items.map((x) => x.name).sort();

describe('search filters', () => {
  let t: TestApp;
  const cats = async (query: string) => {
    const res = await call(t.app, 'GET', `/api/search/cats?${query}`);
    expect(res.status, query).toBe(200);
    return sorted(res.body.cats);
  };
  const bodegas = async (query: string) => {
    const res = await call(t.app, 'GET', `/api/search/bodegas?${query}`);
    expect(res.status, query).toBe(200);
    return sorted(res.body.bodegas);
  };

  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    await buildWorld(t.services);
  });
  afterAll(async () => t.close());

  it('filters cats by breed and personality, whatever their case', async () => {
    expect(await cats('breed=tabby')).toEqual(['Mittens', 'Shadow', 'Whiskers the Tabby']);
    expect(await cats('breed=TABBY')).toEqual(['Mittens', 'Shadow', 'Whiskers the Tabby']);
    expect(await cats('breed=Maine%20Coon')).toEqual(['Milo', "Robert'); DROP TABLE cats;--"]);
    expect(await cats('personality=Friendly')).toEqual([
      "Robert'); DROP TABLE cats;--",
      'Shadow',
      'Whiskers the Tabby',
    ]);
    expect(await cats('breed=Sphynx')).toEqual([]);
  });

  it('treats an empty breed or personality as any', async () => {
    expect(await cats('breed=&personality=')).toHaveLength(7);
  });

  it('filters cats by friendliness', async () => {
    expect(await cats('is_friendly=false')).toEqual(['Mittens']);
    expect(await cats('is_friendly=true')).toHaveLength(6);
  });

  it('applies rating bounds inclusively', async () => {
    expect(await cats('min_rating=4.5')).toEqual(['Shadow', 'Whiskers the Tabby']);
    expect(await cats('max_rating=2')).toEqual(['Luna', 'Milo', "Robert'); DROP TABLE cats;--"]);
    expect(await cats('min_rating=3&max_rating=4')).toEqual(['Ginger', 'Mittens']);
    expect(await cats('min_rating=4.5&max_rating=4.5')).toEqual(['Whiskers the Tabby']);
    expect(await cats('min_rating=0&max_rating=5')).toHaveLength(7);
  });

  it('combines every cat filter with each other and with text', async () => {
    expect(
      await cats('breed=tabby&personality=friendly&is_friendly=true&min_rating=4&max_rating=4.9'),
    ).toEqual(['Whiskers the Tabby']);
    expect(await cats('breed=tabby&is_friendly=true')).toEqual(['Shadow', 'Whiskers the Tabby']);
    expect(await cats('q=bronx&breed=tabby')).toEqual(['Shadow']);
    expect(await cats('q=broadway&breed=tabby')).toEqual(['Whiskers the Tabby']);
    expect(await cats('q=whiskers&min_rating=4.5')).toEqual(['Whiskers the Tabby']);
    expect(await cats('q=whiskers&is_friendly=false')).toEqual([]);
  });

  it('counts filtered results in the pagination', async () => {
    const res = await call(t.app, 'GET', '/api/search/cats?breed=tabby&per_page=2');
    expect(res.body.pagination).toEqual({ page: 1, per_page: 2, total: 3, pages: 2, total_exact: true });
  });

  it('filters bodegas by cat count, verification and rating', async () => {
    expect(await bodegas('min_cats=2')).toEqual(['Golden Grocery', 'Sunny Deli']);
    expect(await bodegas('max_cats=1')).toEqual(['Concourse Market', 'Mystery Mart', 'Whiskers Corner']);
    expect(await bodegas('min_cats=2&max_cats=2')).toEqual(['Golden Grocery', 'Sunny Deli']);
    expect(await bodegas('verified_only=true')).toEqual(['Golden Grocery', 'Sunny Deli']);
    expect(await bodegas('verified_only=false')).toHaveLength(5);
    expect(await bodegas('min_rating=3&max_rating=4.5')).toEqual(['Sunny Deli', 'Whiskers Corner']);
    expect(await bodegas('verified_only=true&min_rating=2&max_rating=2&min_cats=1')).toEqual([
      'Golden Grocery',
    ]);
    expect(await bodegas('q=deli&verified_only=true')).toEqual(['Sunny Deli']);
  });

  it('rejects bad filter values naming the field', async () => {
    const bad: [string, string, string][] = [
      ['cats', 'min_rating=6', 'min_rating'],
      ['cats', 'max_rating=-1', 'max_rating'],
      ['cats', 'min_rating=abc', 'min_rating'],
      ['cats', 'min_rating=4&max_rating=3', 'min_rating'],
      ['cats', 'is_friendly=yes', 'is_friendly'],
      ['cats', `q=${'a'.repeat(201)}`, 'q'],
      ['cats', 'page=0', 'page'],
      ['cats', 'per_page=101', 'per_page'],
      ['bodegas', 'min_cats=-1', 'min_cats'],
      ['bodegas', 'max_cats=101', 'max_cats'],
      ['bodegas', 'min_cats=1.5', 'min_cats'],
      ['bodegas', 'min_cats=5&max_cats=2', 'min_cats'],
      ['bodegas', 'verified_only=1', 'verified_only'],
      ['bodegas', 'max_rating=5.5', 'max_rating'],
    ];
    for (const [type, query, field] of bad) {
      const res = await call(t.app, 'GET', `/api/search/${type}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe('invalid_input');
      expect(Object.keys(res.body.details), query).toContain(field);
      expect(res.body.error, query).toContain(field);
    }
  });

  it('offers each breed and personality once, case variants merged, sorted', async () => {
    const res = await call(t.app, 'GET', '/api/search/filters');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      breeds: ['Calico', 'Maine Coon', 'Siamese', 'Tabby'],
      personalities: ['Curious', 'Friendly', 'Lazy', 'Playful', 'Shy'],
    });
  });
});
