// The checks of the catalogue's request bodies (contract/catalogue.ts) that JSON Schema cannot
// express: blank text, NUL characters, coordinates given as a pair, the If-Match version. Text is
// normalized (server/http/text.ts; one-line fields without line breaks), trimmed and otherwise
// stored as given.
import type { NewCatBody } from '../../contract/catalogue.ts';
import { isStorable } from '../http/schemas.ts';
import { hasVisibleText, normalizeLine, normalizeText } from '../http/text.ts';
import { Invalid } from '../errors.ts';
import type { CatFields } from '../events/types.ts';

export type Coordinates = { latitude: number; longitude: number };

const REQUIRED_TEXT = new Set(['name', 'bodega_name', 'address']);

/** The one field of several lines; every other text is one line. */
const MULTILINE_TEXT = new Set(['description']);

/**
 * Normalizes and trims every text field and reports, in one 400, required fields that show nothing
 * (blank, or only invisible characters such as zero-width spaces or braille blanks) and text the
 * database cannot hold (NUL characters, unpaired surrogates). Optional text that shows nothing is
 * stored as empty.
 */
export function cleanText<T extends object>(body: T): T {
  const details: Record<string, string> = {};
  const out = { ...body } as Record<string, unknown>;
  for (const [field, value] of Object.entries(body)) {
    if (typeof value !== 'string') continue;
    if (!isStorable(value)) {
      details[field] = 'contains characters that are not allowed';
      continue;
    }
    const text = (MULTILINE_TEXT.has(field) ? normalizeText(value) : normalizeLine(value)).trim();
    const visible = hasVisibleText(text);
    if (REQUIRED_TEXT.has(field) && !visible) details[field] = 'must not be blank';
    out[field] = visible ? text : '';
  }
  throwIfAny(details);
  return out as T;
}

/** The body's coordinates, or null when it gives none; one without the other is a 400. */
export function coordinatesOf(body: { latitude?: number | null; longitude?: number | null }) {
  const lat = body.latitude ?? null;
  const lng = body.longitude ?? null;
  if (lat === null && lng === null) return null;
  if (lat === null || lng === null) {
    const missing = lat === null ? 'latitude' : 'longitude';
    throwIfAny({ [missing]: 'is required when the other coordinate is given' });
  }
  return { latitude: lat, longitude: lng } as Coordinates;
}

/** Cat fields for a new cat: omitted optional fields take their defaults. */
export function newCatFields(body: NewCatBody): CatFields {
  return {
    name: body.name,
    description: body.description ?? '',
    age: body.age ?? '',
    breed: body.breed ?? '',
    sex: body.sex ?? '',
    personality: body.personality ?? '',
    color: body.color ?? '',
    weight: body.weight ?? '',
    is_friendly: body.is_friendly ?? true,
  };
}

/** `If-Match: 3` (or an entity tag `"3"` / `W/"3"`): the version the caller last saw. */
export function expectedVersionOf(header: string | string[] | undefined): number | null {
  if (header === undefined) return null;
  const value = (Array.isArray(header) ? header.join(',') : header).trim();
  const match = /^(?:W\/)?"?([0-9]{1,9})"?$/.exec(value);
  if (!match) throwIfAny({ 'If-Match': 'must be the version number of the item, e.g. If-Match: 3' });
  return Number(match![1]);
}

function throwIfAny(details: Record<string, string>): void {
  const entries = Object.entries(details);
  if (entries.length === 0) return;
  const [field, message] = entries[0]!;
  throw new Invalid(`${field} ${message}`, details);
}
