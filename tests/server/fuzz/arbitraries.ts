// Generators of hostile input: junk values of every JSON type, strings that databases and parsers
// trip over, id-like path segments, query values and header values.
import fc from 'fast-check';

/** Percent-encodes any string, lone surrogates included (encodeURIComponent throws on those). */
export function percentEncode(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9._~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** Strings chosen for the trouble they cause somewhere between the parser and the database. */
const nastyStrings = fc.constantFrom(
  '',
  ' ',
  '   \t\n ',
  '\u0000',
  'cat\u0000name',
  '\uD800',
  'tabby\uDFFFcat',
  '\uFEFFbom',
  '\u202Eevil',
  '😺😸😹',
  'e\u0301\u0301\u0301',
  'null',
  'true',
  'undefined',
  '0',
  '-1',
  '1e309',
  '9007199254740993',
  'NaN',
  '0x1F',
  '[]',
  '{}',
  '"quoted"',
  "'; drop table cats; --",
  '%00',
  '%',
  '../../../etc/passwd',
  '..\\..\\windows',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '\r\nX-Injected: yes',
  '__proto__',
  'constructor',
);

/** Up to a little over the 1 MB body limit, rarely (they are slow to push through every layer). */
export const hugeString = fc
  .tuple(fc.constantFrom(201, 2001, 70_000, 1_100_000), fc.constantFrom('x', 'é', '😺', '\u0000', ' '))
  .map(([n, ch]) => ch.repeat(n));

export const junkString = fc.oneof(
  { weight: 4, arbitrary: nastyStrings },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 101, maxLength: 2100 }) },
);

export const junkNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, -1, 1.5, 6, 1e21, -1e21, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 63)),
);

/** Any JSON value, including the near-miss ones: numbers as strings, nulls, nested containers. */
export const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: junkString },
  { weight: 3, arbitrary: junkNumber },
  { weight: 2, arbitrary: junkNumber.map((n) => String(n)) },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(junkString, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(junkString, junkString, { maxKeys: 3 }) },
);

export const extraKey = fc.oneof(
  fc.constantFrom(
    'id',
    'created_by',
    'user_id',
    'is_verified',
    'version',
    'rating ',
    'Name',
    '__proto__',
    'constructor',
  ),
  fc.string({ minLength: 1, maxLength: 20 }),
);

/**
 * A body shaped like a valid one with some fields given junk, some dropped and, when `extra` is
 * set, at least one key the contract does not know (which makes it certain to be refused).
 */
export function mutatedBody(valid: Record<string, unknown>, options: { extra: boolean }) {
  const keys = Object.keys(valid);
  return fc
    .record({
      junk: fc.subarray(keys),
      dropped: fc.subarray(keys),
      values: fc.array(junkValue, { minLength: keys.length, maxLength: keys.length }),
      extras: fc.array(fc.tuple(extraKey, junkValue), { minLength: options.extra ? 1 : 0, maxLength: 3 }),
    })
    .map(({ junk, dropped, values, extras }) => {
      const body: Record<string, unknown> = {};
      keys.forEach((k, i) => {
        if (dropped.includes(k) && !junk.includes(k)) return;
        body[k] = junk.includes(k) ? values[i] : valid[k];
      });
      for (const [k, v] of extras) {
        // A key the contract knows would not make the body certainly wrong.
        if (k in valid) continue;
        Object.defineProperty(body, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
      return body;
    })
    .filter((body) => !options.extra || Object.keys(body).some((k) => !(k in valid)));
}

/** Characters that text columns, JSON and encoders refuse or mangle, or that patterns treat specially. */
export const poisonChar = fc.constantFrom(
  '\u0000',
  '\uD800',
  '\uDFFF',
  '\uFFFF',
  '\uFEFF',
  '\u202E',
  '\u0008',
  '\\',
  "'",
  '"',
  '%',
  '_',
  '*',
  '\u00A0',
  '\n',
);

/** A string like `valid` with a troublesome character slipped in somewhere. */
export function withPoisonChar(valid: string): fc.Arbitrary<string> {
  return fc
    .tuple(fc.nat({ max: valid.length }), fc.array(poisonChar, { minLength: 1, maxLength: 3 }))
    .map(([at, chars]) => valid.slice(0, at) + chars.join('') + valid.slice(at));
}

/** A value shaped like `valid` with one thing wrong: a bad character, a wrong type, a bad size. */
export function poisoned(valid: unknown): fc.Arbitrary<unknown> {
  const typeSwaps = fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, '', [], {}, [valid], {
    value: valid,
  });
  if (typeof valid === 'string')
    return fc.oneof(
      { weight: 4, arbitrary: withPoisonChar(valid) },
      { weight: 2, arbitrary: junkString },
      {
        weight: 1,
        arbitrary: fc.constantFrom(valid.repeat(60), ` ${valid} `, valid.toUpperCase(), valid.slice(1)),
      },
      { weight: 1, arbitrary: hugeString.filter((h) => h.length < 100_000) },
      { weight: 2, arbitrary: typeSwaps },
    );
  if (typeof valid === 'number')
    return fc.oneof(
      { weight: 2, arbitrary: fc.constant(String(valid)) },
      { weight: 3, arbitrary: junkNumber },
      { weight: 1, arbitrary: fc.constantFrom(valid + 0.5, -valid, valid * 1e6, valid + 1, valid - 1) },
      { weight: 2, arbitrary: typeSwaps },
    );
  if (typeof valid === 'boolean')
    return fc.constantFrom<unknown>('true', 'false', String(!valid), 0, 1, null, 'yes', [], {});
  return junkValue;
}

/** A valid body with one or two of its fields poisoned, the rest left valid. */
export function poisonedBody(valid: Record<string, unknown>) {
  const keys = Object.keys(valid);
  return fc
    .uniqueArray(fc.constantFrom(...keys), { minLength: 1, maxLength: Math.min(2, keys.length) })
    .chain((picked) => fc.tuple(fc.constant(picked), fc.tuple(...picked.map((k) => poisoned(valid[k])))))
    .map(([picked, values]) => {
      const body = { ...valid };
      picked.forEach((k, i) => (body[k] = values[i]));
      return body;
    });
}

/** Text that is not JSON, or is JSON cut short. */
export const notJson = fc.oneof(
  fc.constantFrom(
    '{',
    '{"name": ',
    "{'name': 'x'}",
    '{"a":1,}',
    'name=Whiskers&address=1',
    '<xml/>',
    'undefined',
    'NaN',
    '\u0000',
    '{"__proto__": {"admin": true}}',
    '{"constructor": {"prototype": {"x": 1}}}',
    '{"name": "a" "b"}',
    '[1, 2',
    '\uFEFF{}',
  ),
  fc.string({ minLength: 1, maxLength: 200 }).filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  }),
);

export const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/jsonx',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/octet-stream',
  '*/*',
  '',
  ';;;',
  'application/json; boundary=x; charset=utf-8; charset=utf-16',
);

/** A path segment where an id goes: nothing, negatives, huge numbers, words, traversal, bad escapes. */
export const junkId = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '-0',
    '00001',
    '1.0',
    '1e3',
    '+1',
    ' 1',
    '1%20',
    '999999999999999',
    '9999999999999999999999',
    '2147483648',
    '9007199254740993',
    'NaN',
    'Infinity',
    'null',
    'abc',
    '..',
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e',
    '%00',
    '%ZZ',
    '%',
    '%C0%AF',
    '%F0%9F%98%BA',
    '%uD800',
    "1'%20or%20'1'%3D'1",
    'a'.repeat(250),
    '1;DROP',
    '%20',
  ),
  fc.integer({ min: -1e6, max: 1e6 }).map(String),
  fc.string({ minLength: 1, maxLength: 30 }).map(percentEncode),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).map(percentEncode),
);

/** A query value, as it appears in the URL (already encoded, sometimes badly). */
export const junkQueryValue = fc.oneof(
  junkId,
  fc.constantFrom(
    '',
    'true',
    'false',
    'TRUE',
    '1',
    'yes',
    '-5',
    '5.5',
    '101',
    '1e2',
    '0x10',
    '%E0%A4%A',
    '[]',
    'cats',
    'bodegas',
  ),
  junkNumber.map((n) => percentEncode(String(n))),
  junkString.map((s) => percentEncode(s.slice(0, 3000))),
);

/** Header values: what the HTTP layer lets through (visible ASCII and Latin-1), never line breaks. */
export const headerValue = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'null',
    '0',
    '-1',
    '*',
    'W/"1"',
    '"1"',
    'W/"abc"',
    '1, 2',
    '99999999999',
    'é',
    '\u00ff\u00fe',
  ),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc.constantFrom(201, 3000).map((n) => 'k'.repeat(n)),
);

export const authorizationValue = fc.oneof(
  headerValue,
  fc.constantFrom(
    'Bearer',
    'Bearer ',
    'bearer x',
    'Bearer a.b.c',
    'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIiwidXNlcm5hbWUiOiJ4In0.',
    'Basic dXNlcjpwYXNz',
    'Token abc',
    'Bearer  two  spaces',
  ),
  headerValue.map((v) => `Bearer ${v}`),
);
