// An upload whose body has all arrived is not cut as too slow while the bucket takes its time to
// store it: the pace bound is the client's, and here the S3 server is frozen (SIGSTOP) for longer
// than the pace window before it answers. A real client on loopback, as the pace is read from the
// socket; the settings scale the defaults down (20 KB/s over 1 s windows).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegOfSize } from '../../fixtures/images.ts';
import { multipartForm } from '../../helpers/multipart-form.ts';
import { addCat, createUser, type TestUser } from './helpers.ts';
import { createS3PhotoTestApp, type S3PhotoTestApp } from './s3-helpers.ts';

const PACE = { minBytesPerSecond: 20_000, windowMs: 1000, maxMs: 20_000 };
const FROZEN_MS = 3000;

let t: S3PhotoTestApp;
let alice: TestUser;
let catId: number;
let port: number;

beforeAll(async () => {
  t = await createS3PhotoTestApp({ worker: false, config: { uploadPace: PACE } });
  alice = await createUser(t, 'alice');
  catId = await addCat(t, alice.id);
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(address).port);
});
afterAll(() => t?.close());

function post(form: ReturnType<typeof multipartForm>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/photos/cats/${catId}/photos`,
        headers: {
          ...form.headers,
          'content-length': form.payload.length,
          authorization: `Bearer ${alice.token}`,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.end(form.payload);
  });
}

describe('an upload while the bucket is slow', () => {
  it('waits for the bucket instead of blaming the client', async () => {
    const form = multipartForm([
      { name: 'photo', data: await jpegOfSize(200_000), filename: 'cat.jpg', contentType: 'image/jpeg' },
    ]);
    t.s3.pause();
    const resumed = setTimeout(() => t.s3.resume(), FROZEN_MS);
    try {
      const started = Date.now();
      const res = await post(form);
      expect(res.status, res.body).toBe(201);
      expect(Date.now() - started).toBeGreaterThanOrEqual(FROZEN_MS - 100);
    } finally {
      clearTimeout(resumed);
      t.s3.resume();
    }
    expect(await t.bucketKeys('incoming/')).toEqual([]);
    expect(await t.bucketKeys('originals/')).toHaveLength(1);
    expect(await t.filesOnDisk()).toEqual([]);
  });
});
