import { describe, expect, it } from 'vitest';
import { displayForm } from '../../../server/search/filter-options.ts';

describe('the spelling offered for case variants of a label', () => {
  it('prefers Title Case, then the fewest capitals, then code-point order', () => {
    expect(displayForm(['maine coon', 'MAINE COON', 'Maine Coon', 'Maine coon'])).toBe('Maine Coon');
    expect(displayForm(['MAINE COON', 'Maine coon'])).toBe('Maine coon');
    expect(displayForm(['tabby', 'TABBY'])).toBe('TABBY');
    expect(displayForm(['domestic Shorthair', 'domestic shorthair'])).toBe('domestic shorthair');
    expect(displayForm([' Tabby '])).toBe('Tabby');
  });

  it('gives the same answer whatever order the variants come in', () => {
    const variants = ['tuxedo', 'TUXEDO', 'Tuxedo', 'tUxedo'];
    expect(displayForm([...variants].reverse())).toBe(displayForm(variants));
  });
});
