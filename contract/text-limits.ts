// How long the text the API takes may be, in characters (the raw value, before trimming): the
// server refuses anything longer, and the client's inputs stop at the same place. Plain numbers
// and functions, no schema, so the client may import them as values (see eslint.config.js).
//
// A character is what a person sees as one (a grapheme cluster): an emoji with its skin tone, a
// flag, a letter with its accents each count once, as they do in a person's head and in the
// inputs' counters. Since one such character may be built of any number of code points, a text
// may also hold at most CODE_POINTS_PER_CHARACTER code points for each character of its limit, so
// that a field of 100 characters cannot carry a megabyte of combining marks.
export const TEXT_LIMITS = {
  /** A cat's or a bodega's name. */
  name: 100,
  address: 200,
  description: 2000,
  hours: 200,
  breed: 100,
  personality: 100,
  age: 50,
  color: 50,
  weight: 50,
  phone: 40,
  /** A review's comment. */
  comment: 2000,
  /** A photo's caption. */
  caption: 300,
  /** A report's comment. */
  reportComment: 500,
  /** A moderator's note on a decision. */
  moderationNote: 1000,
} as const;

/**
 * Code points a text may hold, on average, for each character of its limit. Text in any script
 * stays well under it (accented letters written decomposed take 2 or 3, most emoji 1 or 2, the
 * longest joined emoji 10, but never all of a field's characters at once).
 */
export const CODE_POINTS_PER_CHARACTER = 4;

// Absent only from old browsers; there every code point counts as a character, which is never
// fewer than the server counts, so such an input still stops in time.
const segmenter =
  typeof Intl === 'object' && 'Segmenter' in Intl
    ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
    : null;

// In Node 20's V8, Intl.Segmenter's work grows with the square of the length of the text it is
// given (16,000 characters took 70 to 300 ms on this project's machine), so text is segmented a
// window at a time. A boundary found before a window's end is a boundary of the whole text (the rules decide a
// boundary from the text before it and the code point after it), and one found at a boundary may
// be resumed from; only the window's last character may run on past it.
const WINDOW = 256;

/** The offset just past each character of `text`, in order. */
function* characterEnds(text: string): Generator<number> {
  if (!segmenter) {
    for (let i = 0; i < text.length;) {
      i += (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
      yield i;
    }
    return;
  }
  let start = 0;
  let size = WINDOW;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    // Never split a surrogate pair: the code point after the last boundary must be whole.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end += 1;
    const ends: number[] = [];
    for (const { index, segment } of segmenter.segment(text.slice(start, end)))
      ends.push(start + index + segment.length);
    if (end < text.length) ends.pop();
    // One character longer than the window (a run of combining marks): try a larger window.
    if (ends.length === 0) {
      size *= 2;
      continue;
    }
    yield* ends;
    start = ends[ends.length - 1]!;
    size = WINDOW;
  }
}

/**
 * The characters of `text` as a person counts them (grapheme clusters); with `stopAfter`, counting
 * stops once there are more than that many.
 */
export function characterCount(text: string, stopAfter = Infinity): number {
  let count = 0;
  for (const _ of characterEnds(text)) if (++count > stopAfter) break;
  return count;
}

/** The code points of `text` (a surrogate pair is one). */
export function codePointCount(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs += 1;
        i += 1;
      }
    }
  }
  return text.length - pairs;
}

/** The words of a 400's details for text of more code points than a field of `limit` may hold. */
export function tooManyCodePoints(limit: number): string {
  return `holds too many accents or joined symbols: at most ${limit * CODE_POINTS_PER_CHARACTER} code points`;
}

/**
 * What is wrong with `text` as the value of a field of `limit` characters, in the words of a 400's
 * details (`must be at most 100 characters`), or null when it fits.
 */
export function lengthProblem(text: string, limit: number): string | null {
  // A character is at least one UTF-16 unit, so a text this short fits whatever it holds.
  if (text.length <= limit) return null;
  // Past twice the ceiling in UTF-16 units the text is over it in code points too; characters are
  // then counted in that much of it alone (which can only count fewer), so the work stays bounded.
  const ceiling = limit * CODE_POINTS_PER_CHARACTER;
  const start = text.length > 2 * ceiling ? text.slice(0, 2 * ceiling) : text;
  if (characterCount(start, limit) > limit) return `must be at most ${limit} characters`;
  if (codePointCount(text) > ceiling) return tooManyCodePoints(limit);
  return null;
}

/** The longest start of `text` a field of `limit` characters takes: what an input keeps of it. */
export function clipToLimit(text: string, limit: number): string {
  if (lengthProblem(text, limit) === null) return text;
  const ceiling = limit * CODE_POINTS_PER_CHARACTER;
  let kept = 0;
  let count = 0;
  let points = 0;
  for (const end of characterEnds(text)) {
    points += codePointCount(text.slice(kept, end));
    if (++count > limit || points > ceiling) break;
    kept = end;
  }
  return text.slice(0, kept);
}
