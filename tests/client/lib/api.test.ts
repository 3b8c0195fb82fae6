import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  api,
  ApiError,
  NETWORK_ERROR_MESSAGE,
  onUnauthorized,
  setBearerToken,
} from '../../../client/src/lib/api.ts';
import { scriptedFetch } from '../helpers.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  setBearerToken(null);
  onUnauthorized(null);
});

describe('the API client', () => {
  it('asks for no caching on every request and adds query parameters', async () => {
    const { sent } = scriptedFetch(() => ({ status: 200, body: { ok: true } }));
    expect(await api.get('/api/search/cats', { query: { q: 'tabby', breed: '', page: 2 } })).toEqual({
      ok: true,
    });
    expect(sent[0]!.url).toBe('/api/search/cats?q=tabby&page=2');
    expect(sent[0]!.headers).toMatchObject({ 'Cache-Control': 'no-cache', Pragma: 'no-cache' });
    expect(sent[0]!.headers).not.toHaveProperty('Authorization');
  });

  it('sends the bearer token once there is one, and JSON bodies', async () => {
    const { sent } = scriptedFetch(() => ({ status: 201, body: {} }));
    setBearerToken('abc');
    await api.post('/api/cats', { name: 'Mittens' }, { headers: { 'Idempotency-Key': 'k1' } });
    expect(sent[0]!.headers).toMatchObject({
      Authorization: 'Bearer abc',
      'Content-Type': 'application/json',
      'Idempotency-Key': 'k1',
    });
    expect(sent[0]!.body).toEqual({ name: 'Mittens' });
  });

  it("throws the server's error text, status and code", async () => {
    scriptedFetch(() => ({ status: 409, body: { error: 'Username already taken', code: 'conflict' } }));
    const error = await api.post('/api/auth/register', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'conflict', message: 'Username already taken' });
  });

  it('turns a missing response into status 0 with the backend-not-available text', async () => {
    scriptedFetch(() => 'network-error');
    await expect(api.get('/api/health')).rejects.toMatchObject({ status: 0, message: NETWORK_ERROR_MESSAGE });
  });

  it('rejects an aborted call with the abort reason, not as a network failure', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn((_input: RequestInfo | URL, init: RequestInit = {}) =>
        Promise.reject(new DOMException('The operation was aborted.', 'AbortError')).finally(() =>
          expect(init.signal?.aborted).toBe(true),
        ),
      ),
    );
    const controller = new AbortController();
    const reason = new DOMException('newer text', 'AbortError');
    controller.abort(reason);
    await expect(api.get('/api/search/suggest', { signal: controller.signal })).rejects.toBe(reason);
  });

  it('reports a 401 only for a call that carried a token', async () => {
    scriptedFetch(() => ({
      status: 401,
      body: { error: 'Invalid username or password', code: 'unauthorized' },
    }));
    const signedOut = vi.fn();
    onUnauthorized(signedOut);
    await api.post('/api/auth/login', {}).catch(() => {});
    expect(signedOut).not.toHaveBeenCalled();
    setBearerToken('expired');
    await api.get('/api/users/savedcats').catch(() => {});
    expect(signedOut).toHaveBeenCalledTimes(1);
  });

  it('sends uploads as multipart without forcing a JSON content type', async () => {
    const { sent } = scriptedFetch(() => ({ status: 201, body: {} }));
    const form = new FormData();
    form.append('caption', 'hello');
    await api.upload('/api/photos/cats/1/photos', form);
    expect(sent[0]!.body).toBeInstanceOf(FormData);
    expect(sent[0]!.headers).not.toHaveProperty('Content-Type');
  });
});
