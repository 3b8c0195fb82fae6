// A photo upload is bounded by its pace, not by REQUEST_TIMEOUT_MS: an honest upload slower than
// the request timeout gets through, one that stalls, trickles or runs past its ceiling gets the
// contract's 408 upload_too_slow with nothing left behind, and every other request keeps the short
// bound. A real client on loopback writes the body in chunks; the test's settings scale the
// defaults down (1 s request timeout, 20 KB/s over 1 s windows, 4 s in all).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegOfSize } from '../../fixtures/images.ts';
import { multipartForm } from '../../helpers/multipart-form.ts';
import {
  addCat,
  createPhotoTestApp,
  createUser,
  eventually,
  filesUnder,
  type PhotoTestApp,
  type TestUser,
} from './helpers.ts';

const PACE = { minBytesPerSecond: 20_000, windowMs: 1000, maxMs: 4000 };

let t: PhotoTestApp;
let alice: TestUser;
let catId: number;
let port: number;

beforeAll(async () => {
  t = await createPhotoTestApp({ worker: false, config: { requestTimeoutMs: 1000, uploadPace: PACE } });
  alice = await createUser(t, 'alice');
  catId = await addCat(t, alice.id);
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(address).port);
});
afterAll(() => t.close());

type Answer = { status: number; body: Record<string, unknown> | null; elapsedMs: number; closed: boolean };

/** Whether `received` holds a whole answer (its head and Content-Length bytes of body). */
function complete(received: Buffer): boolean {
  const end = received.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /content-length: *(\d+)/i.exec(received.subarray(0, end).toString('latin1'))?.[1];
  return length !== undefined && received.length >= end + 4 + Number(length);
}

/**
 * Sends `head` and then `body` `chunk` bytes every `everyMs` ms, stopping after `stopAfter` bytes
 * or at the first byte of an answer, and reads the answer until it is whole and the server has
 * closed the connection or kept it open for keep-alive, or `waitMs` has passed.
 */
async function send(
  head: string,
  body: Buffer,
  plan: { chunk: number; everyMs: number; stopAfter?: number; waitMs?: number },
): Promise<Answer> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const started = Date.now();
  let received = Buffer.alloc(0);
  let closed = false;
  socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
  socket.on('error', () => {});
  const ended = new Promise<void>((resolve) => {
    socket.once('close', () => {
      closed = true;
      resolve();
    });
    // A kept-alive connection stays open: a whole answer that does not ask to close is the end.
    socket.on('data', () => {
      if (complete(received) && !/\r\nconnection: *close/i.test(received.toString('latin1'))) resolve();
    });
  });
  socket.write(head);
  const limit = Math.min(plan.stopAfter ?? body.length, body.length);
  for (let sent = 0; sent < limit && received.length === 0 && !closed; sent += plan.chunk) {
    socket.write(body.subarray(sent, Math.min(limit, sent + plan.chunk)));
    await new Promise((r) => setTimeout(r, plan.everyMs));
  }
  await Promise.race([ended, new Promise((r) => setTimeout(r, plan.waitMs ?? 5000))]);
  const elapsedMs = Date.now() - started;
  socket.destroy();
  const text = received.toString('utf8');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  const json = text.slice(text.indexOf('\r\n\r\n') + 4);
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = JSON.parse(json) as Record<string, unknown>;
  } catch {}
  return { status, body: parsed, elapsedMs, closed };
}

async function photoUpload(size: number) {
  const form = multipartForm([
    { name: 'photo', data: await jpegOfSize(size), filename: 'cat.jpg', contentType: 'image/jpeg' },
    { name: 'caption', value: 'Arrived slowly' },
  ]);
  const head =
    `POST /api/photos/cats/${catId}/photos HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
    `Authorization: Bearer ${alice.token}\r\nContent-Type: ${form.headers['content-type']}\r\n` +
    `Content-Length: ${form.payload.length}\r\n\r\n`;
  return { head, body: form.payload };
}

const photoRows = async () =>
  (await t.services.database.db.selectFrom('photos').select('id').where('target_id', '=', catId).execute())
    .length;
const uploadEvents = async () =>
  (
    await t.services.database.db
      .selectFrom('events')
      .select('global_position')
      .where('type', '=', 'PhotoUploaded')
      .execute()
  ).length;

/** Nothing of a refused upload stays: no file in incoming/ or originals/, no photo, no event. */
async function expectNothingKept(before: { rows: number; events: number; files: string[] }) {
  await eventually(async () => (await filesUnder(t.uploadDir)).join() === before.files.join());
  expect(await photoRows()).toBe(before.rows);
  expect(await uploadEvents()).toBe(before.events);
}

const snapshot = async () => ({
  rows: await photoRows(),
  events: await uploadEvents(),
  files: await filesUnder(t.uploadDir),
});

describe('a photo upload slower than REQUEST_TIMEOUT_MS', () => {
  it('gets through when it keeps its pace (96 KB at 50 KB/s: twice the request timeout)', async () => {
    const { head, body } = await photoUpload(96 * 1024);
    const before = await photoRows();
    const answer = await send(head, body, { chunk: 5000, everyMs: 100 });
    expect(answer.elapsedMs).toBeGreaterThan(1500);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ photo: { caption: 'Arrived slowly', status: 'processing' } });
    expect(await photoRows()).toBe(before + 1);
    expect((await filesUnder(t.uploadDir)).filter((f) => f.startsWith('incoming'))).toEqual([]);
  });

  it('answers 408 upload_too_slow to one that stalls, and keeps nothing of it', async () => {
    const before = await snapshot();
    const { head, body } = await photoUpload(96 * 1024);
    const answer = await send(head, body, { chunk: 5000, everyMs: 50, stopAfter: 20_000 });
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual({ error: expect.stringMatching(/too slow/), code: 'upload_too_slow' });
    expect(answer.closed).toBe(true);
    // Cut within a window or two of the stall, not at some later timeout.
    expect(answer.elapsedMs).toBeLessThan(3500);
    await expectNothingKept(before);
  });

  it('answers 408 upload_too_slow to one that trickles below the pace', async () => {
    const before = await snapshot();
    const { head, body } = await photoUpload(96 * 1024);
    // 1,000 bytes every 100 ms: 10 KB/s, never idle but half the pace asked.
    const answer = await send(head, body, { chunk: 1000, everyMs: 100 });
    expect(answer.status).toBe(408);
    expect(answer.body).toMatchObject({ code: 'upload_too_slow' });
    expect(answer.elapsedMs).toBeLessThan(3500);
    await expectNothingKept(before);
  });

  it('answers 408 upload_too_slow to one that keeps its pace past the ceiling', async () => {
    const before = await snapshot();
    const { head, body } = await photoUpload(300 * 1024);
    // 50 KB/s would need 6 s; the ceiling is 4 s.
    const answer = await send(head, body, { chunk: 5000, everyMs: 100, waitMs: 3000 });
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual({
      error: 'The upload took longer than 4 seconds. Please try again on a faster connection.',
      code: 'upload_too_slow',
    });
    expect(answer.elapsedMs).toBeGreaterThan(3900);
    await expectNothingKept(before);
  });
});

describe('any other request', () => {
  it('keeps REQUEST_TIMEOUT_MS, answered in the contract shape', async () => {
    const head =
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      'Content-Length: 200\r\n\r\n';
    // A byte every 100 ms: steady, but the whole request would take 20 s.
    const answer = await send(head, Buffer.from(' '.repeat(200)), { chunk: 1, everyMs: 100 });
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual({ error: expect.any(String), code: 'request_timeout' });
    expect(answer.elapsedMs).toBeLessThan(2500);
  });

  it('answers bytes that are not HTTP in the contract shape too', async () => {
    const answer = await send('HELLO THERE\r\n\r\n', Buffer.alloc(0), { chunk: 1, everyMs: 10 });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: expect.any(String), code: 'bad_request' });
    expect(answer.closed).toBe(true);
  });
});
