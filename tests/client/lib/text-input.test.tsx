// The character counter the client's inputs share with the server (contract/text-limits.ts):
// characters as a person sees them, with the code-point ceiling, and inputs that stop there.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import fc from 'fast-check';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { TextField } from '../../../client/src/components/TextField.tsx';
import { characterCount } from '../../../client/src/lib/text-input.ts';
import { clipToLimit, lengthProblem } from '../../../contract/text-limits.ts';

afterEach(cleanup);

const whole = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const segmented = (text: string) => [...whole.segment(text)].length;

describe('characterCount', () => {
  it('counts what a person sees as one character once', () => {
    expect(characterCount('cat')).toBe(3);
    expect(characterCount('😺')).toBe(1);
    expect(characterCount('👍🏽')).toBe(1);
    expect(characterCount('🇫🇷🇯🇵')).toBe(2);
    expect(characterCount('👨‍👩‍👧‍👦')).toBe(1);
    expect(characterCount('Cafe\u0301')).toBe(4);
    expect(characterCount('\r\n')).toBe(1);
    expect(characterCount('')).toBe(0);
  });

  it('counts long text as Intl.Segmenter does over the whole of it', () => {
    // Pieces that join across the segmenter's windows: runs of marks, flags, joined emoji, Hangul
    // jamo, Indic conjuncts, CR LF.
    const piece = fc.constantFrom(
      'a',
      ' ',
      'e\u0301',
      '\u0301',
      '👍🏽',
      '👨‍👩‍👧‍👦',
      '🇫',
      '🇷',
      '\u1100',
      '\u1161',
      '\u11A8',
      '\u0915\u094D\u0937',
      '\u094D',
      '\r',
      '\n',
      '\u200D',
      '\uFE0F',
      '😺',
      '\u0600',
      'x'.repeat(300),
      '\u0301'.repeat(300),
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 400 }), (pieces) => {
        const text = pieces.join('');
        expect(characterCount(text)).toBe(segmented(text));
      }),
      { numRuns: 300 },
    );
  });

  it('counts a long text in time that grows with its length, not its square', () => {
    const text = JSON.parse(JSON.stringify('😺'.repeat(50_000))) as string;
    const started = performance.now();
    expect(characterCount(text)).toBe(50_000);
    // Segmented whole, this took seconds on Node 20.
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe('limits', () => {
  it('reports a text over its characters or its code points in the server’s words', () => {
    expect(lengthProblem('😺'.repeat(2000), 2000)).toBeNull();
    expect(lengthProblem('👍🏽'.repeat(1500), 2000)).toBeNull();
    expect(lengthProblem('😺'.repeat(2001), 2000)).toBe('must be at most 2000 characters');
    expect(lengthProblem(`e${'\u0301'.repeat(400)}`, 100)).toBe(
      'holds too many accents or joined symbols: at most 400 code points',
    );
  });

  it('clips a text to the characters and code points its field takes', () => {
    expect(clipToLimit('😺'.repeat(12), 10)).toBe('😺'.repeat(10));
    expect(clipToLimit('👍🏽'.repeat(5), 5)).toBe('👍🏽'.repeat(5));
    expect(clipToLimit('short', 10)).toBe('short');
    // Ten characters may hold 40 code points: a sixth family of seven would make 42.
    expect(clipToLimit('👨‍👩‍👧‍👦'.repeat(6), 10)).toBe('👨‍👩‍👧‍👦'.repeat(5));
  });
});

describe('an input with a limit', () => {
  function Name({ limit }: { limit: number }) {
    const [value, setValue] = useState('');
    return <TextField label="Cat Name" value={value} onChange={setValue} maxLength={limit} />;
  }

  it('takes as many emoji as the limit has characters, and no more', () => {
    render(<Name limit={100} />);
    const input = screen.getByLabelText('Cat Name') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '👍🏽'.repeat(100) } });
    expect(input.value).toBe('👍🏽'.repeat(100));
    fireEvent.change(input, { target: { value: '👍🏽'.repeat(101) } });
    expect(input.value).toBe('👍🏽'.repeat(100));
  });
});
