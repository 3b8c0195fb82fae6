// Helpers for client component tests: a scripted fetch that records what the app sent.
import { vi } from 'vitest';

export type SentRequest = { url: string; method: string; headers: Record<string, string>; body: unknown };
export type Reply = { status: number; body?: unknown } | 'network-error' | 'never';
/** A reply, or one held back until the promise settles (a slow answer the test releases). */
export type Responder = (request: SentRequest) => Reply | Promise<Reply>;

export function scriptedFetch(respond: Responder) {
  const sent: SentRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>));
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    const request = { url: String(input), method: init.method ?? 'GET', headers, body };
    sent.push(request);
    const reply = await respond(request);
    if (reply === 'network-error') throw new TypeError('Failed to fetch');
    if (reply === 'never') return new Promise<Response>(() => {});
    return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { sent, fetchMock };
}
