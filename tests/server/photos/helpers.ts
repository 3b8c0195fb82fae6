// Shared set-up for the photo tests: an app with its own UPLOAD_DIR, users, catalogue entries
// appended through the event store, and multipart uploads.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import type { Config } from '../../../server/config.ts';
import { nextId } from '../../../server/events/store.ts';
import { appendBodega, appendCat } from '../../helpers/catalogue-events.ts';
import { multipartForm, type FormPart } from '../../helpers/multipart-form.ts';
import type { Json } from '../../helpers/json.ts';

export type PhotoTestApp = TestApp & { uploadDir: string };

export async function createPhotoTestApp(
  options: { worker?: boolean; config?: Partial<Config> } = {},
): Promise<PhotoTestApp> {
  const uploadDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bodega-photos-'));
  const t = await createTestApp({
    worker: options.worker,
    config: { uploadDir, logLevel: process.env.PHOTO_TEST_LOG ?? 'silent', ...options.config },
  });
  return {
    ...t,
    uploadDir,
    async close() {
      await t.close();
      await fs.rm(uploadDir, { recursive: true, force: true });
    },
  };
}

export type TestUser = { id: number; username: string; token: string };

export async function createUser(t: TestApp, username: string): Promise<TestUser> {
  const { db } = t.services.database;
  const id = await nextId(db, 'user_ids');
  await db
    .insertInto('users')
    .values({ id, username, email: `${username}@example.com`, password_hash: 'not-a-real-hash' })
    .execute();
  return { id, username, token: t.app.issueToken({ id, username }) };
}

export async function addBodega(t: TestApp, createdBy: number | null, name = 'Corner Deli'): Promise<number> {
  return appendBodega(t.services, { created_by: createdBy, name });
}

export async function addCat(t: TestApp, createdBy: number | null, bodegaId?: number): Promise<number> {
  const bodega = bodegaId ?? (await addBodega(t, createdBy));
  return appendCat(t.services, bodega, { created_by: createdBy });
}

/** A form field, or a file sent as photo.jpg, image/jpeg unless it says otherwise. */
export type Part =
  { name: string; value: string } | { name: string; file: Buffer; filename?: string; contentType?: string };

function formPart(part: Part): FormPart {
  if (!('file' in part)) return part;
  const { name, file, filename = 'photo.jpg', contentType = 'image/jpeg' } = part;
  return { name, data: file, filename, contentType };
}

export async function upload(
  t: TestApp,
  url: string,
  parts: Part[],
  token?: string,
  headers: Record<string, string> = {},
) {
  const body = multipartForm(parts.map(formPart));
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return { status: res.statusCode, body: res.json() as Json, headers: res.headers };
}

/** Uploads one image as `photo` and returns the created photo. */
export async function uploadPhoto(
  t: TestApp,
  folder: 'cats' | 'bodegas',
  id: number,
  file: Buffer,
  token: string,
  fields: Record<string, string> = {},
) {
  const parts: Part[] = [
    { name: 'photo', file },
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
  ];
  const res = await upload(t, `/api/photos/${folder}/${id}/photos`, parts, token);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.photo as { id: number; filename: string; is_primary: boolean; status: string };
}

export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** Files are removed after the response is sent, so give that a moment. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
