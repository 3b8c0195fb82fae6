import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { useSession } from '../../../../client/src/features/auth/stores/session.ts';
import { SUGGEST_DEBOUNCE_MS } from '../../../../client/src/features/search/hooks/use-suggestions.ts';
import SearchPage from '../../../../client/src/features/search/routes/SearchPage.tsx';

class QuietSocket {
  onopen = null;
  onmessage = null;
  onclose = null;
  onerror = null;
  close() {}
}

type Sent = { url: string; signal: AbortSignal | undefined; answer(body: unknown): void };

const SUGGESTIONS = [
  { kind: 'cat', label: 'Mozzarella', id: 7, detail: 'Mozzarella Deli' },
  { kind: 'bodega', label: 'Mozzarella Deli', id: 3, detail: '5 Mulberry St' },
  { kind: 'breed', label: 'Mozambique Mau' },
];

/**
 * A fetch that answers everything at once except suggestions, which wait for `answer` (and reject
 * when aborted, as fetch does). Search pages say whether their total is exact per `totalExact`.
 */
function stubFetch(totalExact = true) {
  const sent: Sent[] = [];
  const reply = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      const signal = init.signal ?? undefined;
      return new Promise<Response>((resolve, reject) => {
        const answer = (body: unknown) => resolve(reply(body));
        sent.push({ url, signal, answer });
        signal?.addEventListener('abort', () => reject(signal.reason));
        if (url.startsWith('/api/search/suggest')) return;
        if (url.startsWith('/api/config'))
          answer({ product_name: 'Bodega Cats', google_maps_api_key: null, nearby_radius_km: 10 });
        else if (url.startsWith('/api/search/filters')) answer({ breeds: [], personalities: [] });
        else {
          const pagination = { page: 1, per_page: 20, total: 31000, pages: 1550, total_exact: totalExact };
          answer(
            url.startsWith('/api/search/bodegas') ? { bodegas: [], pagination } : { cats: [], pagination },
          );
        }
      });
    }),
  );
  return {
    sent,
    suggests: () => sent.filter((r) => r.url.startsWith('/api/search/suggest')),
    searches: () => sent.filter((r) => /^\/api\/search\/(cats|bodegas)/.test(r.url)).map((r) => r.url),
  };
}

async function renderSearch(path = '/search') {
  const router = createMemoryRouter(
    [
      { path: '/search', element: <SearchPage /> },
      { path: '/cat/:id', element: <p>cat page</p> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  await act(async () => {});
  return router;
}

async function wait(ms: number) {
  for (let left = ms; left > 0; left -= 10) {
    await act(() => vi.advanceTimersByTimeAsync(Math.min(10, left)));
  }
}

const box = () => screen.getByRole('combobox', { name: 'Search cats and bodegas' });
const type = (text: string) => fireEvent.change(box(), { target: { value: text } });
/** The combobox's own live region. */
const announcement = () => box().parentElement!.querySelector('[role="status"]')!.textContent;
const key = (name: string) => fireEvent.keyDown(box(), { key: name });

async function showSuggestions(stub: ReturnType<typeof stubFetch>, text = 'mozz') {
  type(text);
  await wait(SUGGEST_DEBOUNCE_MS + 10);
  await act(async () => stub.suggests().at(-1)!.answer({ suggestions: SUGGESTIONS }));
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
  vi.stubGlobal('WebSocket', QuietSocket);
  useSession.setState({ user: null, token: null, loading: false, readyAt: Date.now() });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the search combobox', () => {
  it('asks for suggestions once typing pauses, and lists them with the ARIA combobox attributes', async () => {
    const stub = stubFetch();
    await renderSearch();
    expect(box().getAttribute('aria-expanded')).toBe('false');
    type('m');
    await wait(50);
    type('mo');
    await wait(50);
    type('moz');
    await wait(SUGGEST_DEBOUNCE_MS - 20);
    expect(stub.suggests()).toHaveLength(0);
    await wait(30);
    expect(stub.suggests().map((r) => r.url)).toEqual(['/api/search/suggest?q=moz']);
    await act(async () => stub.suggests()[0]!.answer({ suggestions: SUGGESTIONS }));

    const list = screen.getByRole('listbox', { name: 'Suggestions' });
    expect(box().getAttribute('aria-expanded')).toBe('true');
    expect(box().getAttribute('aria-controls')).toBe(list.id);
    expect(box().getAttribute('aria-autocomplete')).toBe('list');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'MozzarellaCat · Mozzarella Deli',
      'Mozzarella DeliBodega · 5 Mulberry St',
      'Mozambique MauBreed',
    ]);
    expect(announcement()).toBe('3 suggestions available. Use up and down arrows to choose.');
  });

  it('aborts the request in flight when the text changes, and never shows a stale answer', async () => {
    const stub = stubFetch();
    await renderSearch();
    type('mo');
    await wait(SUGGEST_DEBOUNCE_MS + 10);
    const first = stub.suggests()[0]!;
    type('moz');
    expect(first.signal?.aborted).toBe(true);
    await act(async () => first.answer({ suggestions: [{ kind: 'cat', label: 'Mochi', id: 1 }] }));
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    await wait(SUGGEST_DEBOUNCE_MS + 10);
    const second = stub.suggests()[1]!;
    expect(second.url).toBe('/api/search/suggest?q=moz');
    await act(async () => second.answer({ suggestions: SUGGESTIONS }));
    expect(screen.getAllByRole('option')).toHaveLength(3);
    // Text typed after an answer hides it until its own answer comes.
    type('mozzy');
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(announcement()).toBe('');
  });

  it('moves through the options with the arrow keys and closes on Escape', async () => {
    const stub = stubFetch();
    await renderSearch();
    await showSuggestions(stub);
    const options = () => screen.getAllByRole('option');
    expect(box().hasAttribute('aria-activedescendant')).toBe(false);
    key('ArrowDown');
    expect(box().getAttribute('aria-activedescendant')).toBe(options()[0]!.id);
    expect(options()[0]!.getAttribute('aria-selected')).toBe('true');
    key('ArrowDown');
    key('ArrowDown');
    expect(box().getAttribute('aria-activedescendant')).toBe(options()[2]!.id);
    key('ArrowDown');
    expect(box().hasAttribute('aria-activedescendant')).toBe(false);
    key('ArrowUp');
    expect(box().getAttribute('aria-activedescendant')).toBe(options()[2]!.id);
    key('Escape');
    expect(box().getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    // Down opens the list again.
    key('ArrowDown');
    await wait(SUGGEST_DEBOUNCE_MS + 10);
    await act(async () => stub.suggests().at(-1)!.answer({ suggestions: SUGGESTIONS }));
    expect(box().getAttribute('aria-expanded')).toBe('true');
  });

  it('opens a chosen cat', async () => {
    const stub = stubFetch();
    const router = await renderSearch();
    await showSuggestions(stub);
    key('ArrowDown');
    key('Enter');
    await act(async () => {});
    expect(router.state.location.pathname).toBe('/cat/7');
  });

  it('applies a chosen breed as the filter, and runs the full search on Enter with no option active', async () => {
    const stub = stubFetch();
    const router = await renderSearch();
    await wait(2100);
    await showSuggestions(stub);
    fireEvent.click(screen.getByRole('option', { name: /Mozambique Mau/ }));
    await wait(20);
    expect(router.state.location.search).toBe('?breed=Mozambique+Mau');
    expect(stub.searches().at(-1)).toBe('/api/search/cats?breed=Mozambique+Mau&per_page=20');
    expect((box() as HTMLInputElement).value).toBe('');

    await showSuggestions(stub, 'whiskers');
    fireEvent.submit(box().closest('form')!);
    await wait(20);
    expect(stub.searches().at(-1)).toBe('/api/search/cats?q=whiskers&breed=Mozambique+Mau&per_page=20');
  });

  it('says "about" before an estimated total', async () => {
    stubFetch(false);
    await renderSearch('/search?q=deli');
    await wait(2100);
    expect(screen.getByRole('heading', { name: 'Cats Found (about 31,000)' })).toBeTruthy();
  });
});
