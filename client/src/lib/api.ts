// The one HTTP client of the app: base address from config, no caching, bearer credential,
// the server's `{ error }` surfaced as ApiError, and a clean sign-out when a token stops working.
import { env } from '../config/env.ts';

export const NETWORK_ERROR_MESSAGE =
  'Backend not available. Please check if the backend is deployed and the API base address is set correctly.';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** True when no response came back at all (server down, offline, CORS refused). */
  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;

export type RequestOptions = {
  query?: Query;
  headers?: Record<string, string>;
  /** Leave the session alone on 401 (the profile check handles its own failure quietly). */
  keepSessionOn401?: boolean;
  /** Cancels the request (a query or suggestion no longer needed): the call rejects with the
   *  signal's reason, not as a network error. */
  signal?: AbortSignal;
};

let bearerToken: string | null = null;
let unauthorizedHandler: (() => void) | null = null;

/**
 * Read-your-writes with read replicas: a write's answer carries the log position it produced, and
 * reads sent in the next LOG_POSITION_MS carry the newest one back, so the server answers them from
 * a database that already has the write. After that, any replica in use has it anyway.
 */
export const LOG_POSITION_HEADER = 'X-Log-Position';
export const LOG_POSITION_MS = 10_000;
let lastWrite: { position: string; until: number } | null = null;

/** A pg_lsn (`16/B374D848`) in a form whose string order is the positions' order. */
function sortable(position: string): string | null {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(position);
  return match ? `${match[1]!.padStart(8, '0')}${match[2]!.padStart(8, '0')}`.toUpperCase() : null;
}

/** Keeps the position an answer carries, unless a newer one is kept already. */
function rememberLogPosition(response: Response): void {
  const position = response.headers.get(LOG_POSITION_HEADER);
  const key = position ? sortable(position) : null;
  if (!position || !key) return;
  const kept = lastWrite && Date.now() < lastWrite.until ? sortable(lastWrite.position) : null;
  if (kept && kept > key) return;
  lastWrite = { position, until: Date.now() + LOG_POSITION_MS };
}

/** The position a read should carry now, if a write gave one in the last LOG_POSITION_MS. */
function logPositionToSend(): string | null {
  if (lastWrite && Date.now() >= lastWrite.until) lastWrite = null;
  return lastWrite?.position ?? null;
}

/** The session store owns the credential; the client only carries it. */
export function setBearerToken(token: string | null): void {
  bearerToken = token;
}

/** Called when a request that carried a token comes back 401 (expired or revoked token). */
export function onUnauthorized(handler: (() => void) | null): void {
  unauthorizedHandler = handler;
}

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, String(value));
  }
  const search = params.toString();
  return `${env.apiBaseUrl}${path}${search ? `?${search}` : ''}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorFrom(status: number, body: unknown): ApiError {
  if (body && typeof body === 'object') {
    const { error, code, details } = body as { error?: unknown; code?: unknown; details?: unknown };
    if (typeof error === 'string' && error) {
      return new ApiError(status, typeof code === 'string' ? code : 'error', error, details);
    }
  }
  return new ApiError(status, 'error', `Request failed with status code ${status}`);
}

async function request<T>(
  method: string,
  path: string,
  body: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Cache-Control': 'no-cache',
    Pragma: 'no-cache',
    ...options.headers,
  };
  const sentToken = bearerToken;
  if (sentToken) headers.Authorization = `Bearer ${sentToken}`;
  const position = method === 'GET' ? logPositionToSend() : null;
  if (position) headers[LOG_POSITION_HEADER] = position;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body: payload,
      cache: 'no-store',
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason ?? error;
    throw new ApiError(0, 'network', NETWORK_ERROR_MESSAGE);
  }
  rememberLogPosition(response);
  const data = await readBody(response).catch(() => null);
  if (response.status >= 200 && response.status < 300) return data as T;

  const error = errorFrom(response.status, data);
  // Only a token the server no longer accepts ends the session; a 401 from the login form
  // (no token yet) is just a wrong password. A newer sign-in in the meantime is left alone.
  if (response.status === 401 && sentToken && sentToken === bearerToken && !options.keepSessionOn401) {
    unauthorizedHandler?.();
  }
  throw error;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body, options),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
  /** A DELETE that carries a JSON body (deleting an account sends the password). */
  deleteWithBody: <T>(path: string, body: unknown, options?: RequestOptions) =>
    request<T>('DELETE', path, body, options),
  upload: <T>(path: string, formData: FormData, options?: RequestOptions) =>
    request<T>('POST', path, formData, options),
};

/** What a read answers, or null when the server says it does not exist (404). */
export async function nullWhenMissing<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** The text a toast shows for a failed call: the server's error, else the screen's fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message && !error.message.startsWith('Request failed')) {
    return error.message;
  }
  return fallback;
}

/** A server path such as `/uploads/cats/x_large.webp` as a URL the browser can load. */
export function assetUrl(path: string | null | undefined): string | null {
  if (!path) return null;
  return /^https?:\/\//i.test(path) ? path : `${env.apiBaseUrl}${path}`;
}
