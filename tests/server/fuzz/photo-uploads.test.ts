// Generated multipart uploads: wrong field names, several files, empty files, text parts only,
// garbage bytes, lying names and types, broken framing. Refused uploads leave neither rows nor files.
import fs from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { multipartForm, type FormPart } from '../../helpers/multipart-form.ts';
import { smallPng } from '../../helpers/world.ts';
import { headerValue, junkString, withPoisonChar } from './arbitraries.ts';
import { check, fuzzSuite, runs, sendBatch, type Caller, type FuzzRequest } from './harness.ts';

const suite = fuzzSuite({ file: 'photo-uploads', minimum: 600 });
let png: Buffer;

beforeAll(async () => {
  png = await smallPng();
});

const BATCH = { minLength: 1, maxLength: 8 };
const JPEG = [0xff, 0xd8, 0xff];
const SIGNATURES = ['\x89PNG', 'GIF87a', 'GIF89a', 'RIFF'];

/** Bytes that no image signature matches (the upload decides the type from the bytes). */
function notAnImage(bytes: Buffer): Buffer {
  const head = bytes.subarray(0, 12).toString('latin1');
  const looksLikeOne = JPEG.every((b, i) => bytes[i] === b) || SIGNATURES.some((s) => head.startsWith(s));
  return looksLikeOne ? Buffer.concat([Buffer.from('x'), bytes]) : bytes;
}

const garbage = fc.oneof(
  fc.constant(Buffer.alloc(0)),
  fc.uint8Array({ minLength: 1, maxLength: 2000 }).map((a) => notAnImage(Buffer.from(a))),
  fc
    .constantFrom('GIF8', '\x89PN', 'RIFF....WEBX', '<svg/>', '%PDF-1.4', 'BM', '\u0000\u0000')
    .map((s) => Buffer.from(s, 'latin1')),
);

/** A real image's first bytes followed by junk: the type check passes, the bytes are still no image. */
const truncatedImage = fc.nat({ max: 60 }).map((n) => png.subarray(0, Math.max(8, n)));

const fileName = fc.oneof(
  fc.constantFrom(
    'cat.png',
    '../../etc/passwd',
    '..\\..\\boot.ini',
    'a"b.png',
    '',
    ' ',
    'x'.repeat(300),
    'cat.png\u0000.exe',
    'ᓚᘏᗢ.jpg',
  ),
  fc.string({ maxLength: 30 }),
);
const declaredType = fc.oneof(
  fc.constantFrom(
    'image/png',
    'image/jpeg',
    'application/octet-stream',
    'text/html',
    'image/svg+xml',
    '',
    'garbage',
  ),
  headerValue,
);
const fieldName = fc.oneof(
  fc.constantFrom('photo', 'photos', 'file', 'image', 'Photo', 'photo[]', 'caption', 'is_primary', ''),
  fc.string({ maxLength: 20 }),
);
const caption = fc.oneof(
  junkString,
  withPoisonChar('A nice cat'),
  fc.constantFrom(
    'x'.repeat(300),
    'x'.repeat(301),
    'é'.repeat(301),
    '😺'.repeat(300),
    '😺'.repeat(301),
    'A nice cat',
  ),
);
const isPrimary = fc.oneof(fc.constantFrom('true', 'false', '', 'TRUE', '1', 'yes', 'null'), junkString);

function filePart(name: fc.Arbitrary<string>, data: fc.Arbitrary<Buffer>): fc.Arbitrary<FormPart> {
  return fc.record({ name, data, filename: fileName, contentType: declaredType });
}

const textPart: fc.Arbitrary<FormPart> = fc.oneof(
  fc.record({ name: fc.constant('caption'), value: caption }),
  fc.record({ name: fc.constant('is_primary'), value: isPrimary }),
  fc.record({ name: fieldName, value: junkString }),
);

/** Turns parts into a request, sometimes with its framing broken on purpose. */
const framing = fc.constantFrom(
  'intact',
  'no closing boundary',
  'wrong boundary',
  'no boundary',
  'cut short',
  'not multipart',
);

function uploadRequest(url: string, caller: Caller, parts: FormPart[], frame: string): FuzzRequest {
  const form = multipartForm(parts.map(safeHeaders));
  let payload = form.payload;
  let contentType = form.headers['content-type']!;
  if (frame === 'no closing boundary') payload = payload.subarray(0, payload.length - 8);
  if (frame === 'wrong boundary') contentType = 'multipart/form-data; boundary=something-else';
  if (frame === 'no boundary') contentType = 'multipart/form-data';
  if (frame === 'cut short') payload = payload.subarray(0, Math.floor(payload.length / 2));
  if (frame === 'not multipart') contentType = 'application/json';
  const headers: Record<string, string> = { 'content-type': contentType };
  const token = suite.app.tokenOf(caller);
  if (token) headers.authorization = `Bearer ${token}`;
  return { method: 'POST', url, headers, payload };
}

/** Part headers are text lines: generated names must not break out of them. */
function safeHeaders(part: FormPart): FormPart {
  const clean = (s: string) => s.replace(/[\r\n"]/g, '_');
  return 'data' in part
    ? {
        ...part,
        name: clean(part.name),
        filename: part.filename === undefined ? undefined : clean(part.filename),
        contentType: part.contentType && clean(part.contentType),
      }
    : { ...part, name: clean(part.name) };
}

const targets = () => [
  `/api/photos/cats/${suite.app.world.catId}/photos`,
  `/api/photos/bodegas/${suite.app.world.bodegaId}/photos`,
];

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe('photo uploads that must be refused', () => {
  it('refuses uploads with no image in them, and keeps neither rows nor files', async () => {
    const parts = fc.array(
      fc.oneof(
        filePart(fieldName, garbage),
        filePart(
          fieldName,
          truncatedImage.map((b) => notAnImage(b)),
        ),
        textPart,
      ),
      {
        maxLength: 5,
      },
    );
    const one = fc.record({
      target: fc.nat({ max: 1 }),
      caller: fc.constantFrom<Caller>('creator', 'other user', 'signed out', 'bad token'),
      parts,
      frame: framing,
    });
    await check(
      'uploads without an image',
      fc.array(one, BATCH),
      async (batch) => {
        await suite.app.keepWorld();
        const before = await filesUnder(suite.app.uploadDir);
        const requests = batch.map((r) => uploadRequest(targets()[r.target]!, r.caller, r.parts, r.frame));
        await sendBatch(suite.app, requests, 'rejected');
        const after = await filesUnder(suite.app.uploadDir);
        if (after.join('\n') !== before.join('\n'))
          throw new Error(
            `refused uploads left files behind: ${after.filter((x) => !before.includes(x)).join(', ')}`,
          );
      },
      runs(60),
    );
  });

  it('refuses a real image sent with a wrong field, a bad caption or is_primary, or a second file', async () => {
    const spoiler = fc.oneof(
      fc.record({
        name: fieldName.filter((n) => n !== 'photo'),
        data: fc.constant(png),
        filename: fileName,
        contentType: declaredType,
      }),
      fc.record({ name: fc.constant('caption'), value: fc.constantFrom('x'.repeat(301), '😺'.repeat(301)) }),
      fc.record({
        name: fc.constant('is_primary'),
        value: isPrimary.filter((v) => !['true', 'false', ''].includes(v)),
      }),
      fc.record({
        name: fc
          .string({ minLength: 1, maxLength: 12 })
          .filter((n) => !['caption', 'is_primary', 'photo'].includes(n.replace(/[\r\n"]/g, '_'))),
        value: junkString,
      }),
      fc.record({
        name: fc.constant('photo'),
        data: fc.constant(png),
        filename: fc.constant('second.png'),
        contentType: fc.constant('image/png'),
      }),
    );
    const one = fc.record({
      target: fc.nat({ max: 1 }),
      caller: fc.constantFrom<Caller>('creator', 'other user'),
      spoiler,
      first: fc.boolean(),
    });
    await check(
      'uploads with one thing wrong',
      fc.array(one, BATCH),
      async (batch) => {
        await suite.app.keepWorld();
        const before = await filesUnder(suite.app.uploadDir);
        const requests = batch.map((r) => {
          const photo: FormPart = { name: 'photo', data: png, filename: 'cat.png', contentType: 'image/png' };
          const parts = r.first ? [r.spoiler, photo] : [photo, r.spoiler];
          return uploadRequest(targets()[r.target]!, r.caller, parts, 'intact');
        });
        await sendBatch(suite.app, requests, 'rejected');
        const after = await filesUnder(suite.app.uploadDir);
        if (after.join('\n') !== before.join('\n'))
          throw new Error(
            `refused uploads left files behind: ${after.filter((x) => !before.includes(x)).join(', ')}`,
          );
      },
      runs(25),
    );
  });

  it('refuses a file over 5 MB with a 413 and keeps nothing', async () => {
    const big = Buffer.concat([png.subarray(0, 16), Buffer.alloc(5 * 1024 * 1024)]);
    const before = await filesUnder(suite.app.uploadDir);
    const requests = targets().map((url) =>
      uploadRequest(
        url,
        'creator',
        [{ name: 'photo', data: big, filename: 'big.png', contentType: 'image/png' }],
        'intact',
      ),
    );
    const answers = await sendBatch(suite.app, requests, 'rejected');
    for (const a of answers) if (a.status !== 413) throw new Error(`expected 413, got ${a.status} ${a.raw}`);
    const after = await filesUnder(suite.app.uploadDir);
    if (after.join('\n') !== before.join('\n')) throw new Error('a refused upload left files behind');
  });
});

describe('any multipart body at all', () => {
  it('answers a real image with a poisoned caption or is_primary without a server error', async () => {
    const field = fc.oneof(
      fc.record({ name: fc.constant('caption'), value: fc.oneof(withPoisonChar('A nice cat'), caption) }),
      fc.record({ name: fc.constant('is_primary'), value: fc.oneof(withPoisonChar('true'), isPrimary) }),
    );
    const one = fc.record({
      target: fc.nat({ max: 1 }),
      caller: fc.constantFrom<Caller>('creator', 'other user', 'newcomer'),
      fields: fc.array(field, { minLength: 1, maxLength: 2 }),
    });
    await check(
      'poisoned upload fields',
      fc.array(one, BATCH),
      async (batch) => {
        await suite.app.keepWorld();
        const requests = batch.map((r) => {
          const photo: FormPart = { name: 'photo', data: png, filename: 'cat.png', contentType: 'image/png' };
          return uploadRequest(targets()[r.target]!, r.caller, [...r.fields, photo], 'intact');
        });
        await sendBatch(suite.app, requests);
        await expectNoStrayUploads();
      },
      runs(20),
    );
  });

  it('answers every generated upload without a server error', async () => {
    const data = fc.oneof(
      { weight: 3, arbitrary: garbage },
      { weight: 1, arbitrary: fc.constant(png) },
      { weight: 1, arbitrary: truncatedImage },
    );
    const anyParts: fc.Arbitrary<FormPart[]> = fc.array(
      fc.oneof(filePart(fieldName, data), filePart(fc.constant('photo'), data), textPart),
      {
        maxLength: 6,
      },
    );
    // Nearly valid uploads: one real image and the optional fields with generated values.
    const nearlyValid = fc
      .tuple(
        filePart(fc.constant('photo'), fc.constant(png)),
        fc.option(fc.record({ name: fc.constant('caption'), value: caption }), { nil: undefined }),
        fc.option(fc.record({ name: fc.constant('is_primary'), value: isPrimary }), { nil: undefined }),
        fc.boolean(),
      )
      .map(([photo, c, p, photoFirst]): FormPart[] => {
        const fields: FormPart[] = [];
        if (c) fields.push(c);
        if (p) fields.push(p);
        return photoFirst ? [photo, ...fields] : [...fields, photo];
      });
    const parts = fc.oneof({ weight: 1, arbitrary: anyParts }, { weight: 2, arbitrary: nearlyValid });
    const url = fc.oneof(
      fc.constant('world'),
      fc.constantFrom(
        '/api/photos/cats/0/photos',
        '/api/photos/bodegas/999999999/photos',
        '/api/photos/dogs/1/photos',
      ),
    );
    const one = fc.record({
      url,
      target: fc.nat({ max: 1 }),
      caller: fc.constantFrom<Caller>('creator', 'other user', 'signed out'),
      parts,
      frame: fc.oneof({ weight: 3, arbitrary: fc.constant('intact') }, { weight: 1, arbitrary: framing }),
      idempotencyKey: fc.option(fc.constantFrom('upload-1', 'upload-2', ''), { nil: undefined }),
    });
    await check(
      'any upload',
      fc.array(one, BATCH),
      async (batch) => {
        await suite.app.keepWorld();
        const requests = batch.map((r) => {
          const req = uploadRequest(
            r.url === 'world' ? targets()[r.target]! : r.url,
            r.caller,
            r.parts,
            r.frame,
          );
          if (r.idempotencyKey !== undefined) req.headers!['idempotency-key'] = r.idempotencyKey;
          return req;
        });
        await sendBatch(suite.app, requests);
        await expectNoStrayUploads();
      },
      runs(60),
    );
  });
});

/**
 * Whatever happened, no half-received upload may stay in the incoming folder. A request the
 * client abandoned mid-body can finish its clean-up just after its answer went out, so a file
 * gets a moment to go before it counts as left behind.
 */
async function expectNoStrayUploads(): Promise<void> {
  const stray = async () => (await filesUnder(suite.app.uploadDir)).filter((p) => !p.startsWith('originals'));
  let left = await stray();
  for (let wait = 0; left.length > 0 && wait < 30; wait++) {
    await new Promise((r) => setTimeout(r, 100));
    left = await stray();
  }
  if (left.length > 0) throw new Error(`files left outside originals/: ${left.join(', ')}`);
}
