// The card's text fitting and the per-process cache of made cards.
import { describe, expect, it } from 'vitest';
import { createCardCache } from '../../../server/share/card-cache.ts';
import { escapeSvg, fitText } from '../../../server/share/card.ts';

describe('fitText', () => {
  it('keeps a short name whole and cuts a long one at a grapheme, with an ellipsis', () => {
    expect(fitText('Whiskers', 72, 1000)).toBe('Whiskers');
    const cut = fitText('Whiskers the Magnificent of Lower Manhattan', 72, 700);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThan(30);
    // Wide characters count about twice a Latin letter.
    expect(fitText('小'.repeat(40), 72, 720)).toBe(`${'小'.repeat(9)}…`);
    // Never half an emoji or a letter without its mark.
    const emoji = fitText('🐈‍⬛'.repeat(30), 60, 300);
    expect(emoji.replace('…', '')).toBe('🐈‍⬛'.repeat((emoji.length - 1) / '🐈‍⬛'.length));
  });

  it('drops characters XML cannot hold, and escapes markup', () => {
    expect(fitText('a\u0000b\u001fc\ud800', 20, 1000)).toBe('abc');
    expect(escapeSvg(`<b a="1">'&'</b>`)).toBe('&#60;b a=&#34;1&#34;&#62;&#39;&#38;&#39;&#60;/b&#62;');
  });
});

describe('the card cache', () => {
  const card = (size: number, fill = 1) => Buffer.alloc(size, fill);

  it('makes a card once, however many ask at the same time', async () => {
    const cache = createCardCache(1000);
    let makings = 0;
    let finish: (card: Buffer) => void = () => {};
    const make = () => {
      makings += 1;
      return new Promise<Buffer>((resolve) => (finish = resolve));
    };
    const asked = [cache.get('a', make), cache.get('a', make), cache.get('a', make)];
    finish(card(10));
    const answers = await Promise.all(asked);
    expect(makings).toBe(1);
    expect(answers.map((a) => a.source)).toEqual(['miss', 'wait', 'wait']);
    expect((await cache.get('a', make)).source).toBe('hit');
  });

  it('makes at most its number of makers at once, the rest in the order asked', async () => {
    const cache = createCardCache(10_000, 2);
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    const make = (key: string) => () => {
      started.push(key);
      return new Promise<Buffer>((resolve) => finish.set(key, () => resolve(Buffer.from(key))));
    };
    const cards = ['a', 'b', 'c', 'd'].map((key) => cache.get(key, make(key)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b']);
    finish.get('b')!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b', 'c']);
    finish.get('a')!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    finish.get('c')!();
    finish.get('d')!();
    expect((await Promise.all(cards)).map(({ card }) => String(card))).toEqual(['a', 'b', 'c', 'd']);
    expect(cache.stats().made).toBe(4);
  });

  it('forgets the least recently used cards beyond its bytes, and a failed making', async () => {
    const cache = createCardCache(250);
    await cache.get('a', async () => card(100));
    await cache.get('b', async () => card(100));
    await cache.get('a', async () => card(100)); // a is now the most recent
    await cache.get('c', async () => card(100)); // over 250: b goes
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 200 });
    expect((await cache.get('a', async () => card(100))).source).toBe('hit');
    expect((await cache.get('b', async () => card(100))).source).toBe('miss');
    // Larger than the whole bound: served, not kept.
    expect((await cache.get('huge', async () => card(300))).card.length).toBe(300);
    expect((await cache.get('huge', async () => card(300))).source).toBe('miss');
    await expect(cache.get('bad', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect((await cache.get('bad', async () => card(10))).source).toBe('miss');
  });
});
