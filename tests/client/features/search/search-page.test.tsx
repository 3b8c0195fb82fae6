import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { useSession } from '../../../../client/src/features/auth/stores/session.ts';
import SearchPage from '../../../../client/src/features/search/routes/SearchPage.tsx';
import { scriptedFetch } from '../../helpers.ts';
import { QueryProvider } from '../../query.tsx';

class QuietSocket {
  onopen = null;
  onmessage = null;
  onclose = null;
  onerror = null;
  close() {}
}

async function renderSearch(path = '/search') {
  const router = createMemoryRouter([{ path: '/search', element: <SearchPage /> }], {
    initialEntries: [path],
  });
  render(
    <QueryProvider>
      <RouterProvider router={router} />
    </QueryProvider>,
  );
  await act(async () => {});
  return router;
}

/** Lets `ms` of fake time pass in 10 ms steps, letting React commit (and run effects) between. */
async function wait(ms: number) {
  for (let left = ms; left > 0; left -= 10) {
    await act(() => vi.advanceTimersByTimeAsync(Math.min(10, left)));
  }
}

function searchCalls(sent: { url: string }[]) {
  return sent.filter((r) => r.url.startsWith('/api/search/cats') || r.url.startsWith('/api/search/bodegas'));
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

const emptyPage = { page: 1, per_page: 20, total: 0, pages: 0 };

function respond(request: { url: string }) {
  if (request.url.startsWith('/api/config'))
    return {
      status: 200,
      body: { product_name: 'Bodega Cats', google_maps_api_key: null, nearby_radius_km: 10 },
    };
  if (request.url.startsWith('/api/search/filters'))
    return { status: 200, body: { breeds: ['Tabby'], personalities: ['Lazy'] } };
  if (request.url.startsWith('/api/search/bodegas'))
    return { status: 200, body: { bodegas: [], pagination: emptyPage } };
  return { status: 200, body: { cats: [], pagination: emptyPage } };
}

describe('the search screen', () => {
  it('loads the filter options and the first results 2 s after the session check', async () => {
    const { sent } = scriptedFetch(respond);
    await renderSearch('/search?q=tabby');
    await wait(1900);
    expect(searchCalls(sent)).toHaveLength(0);
    expect(sent.some((r) => r.url.startsWith('/api/search/filters'))).toBe(false);
    await wait(200);
    expect(searchCalls(sent).map((r) => r.url)).toEqual(['/api/search/cats?q=tabby&per_page=20']);
    expect(sent.some((r) => r.url.startsWith('/api/search/filters'))).toBe(true);
    expect(screen.getByRole('heading', { name: 'Cats Found (0)' })).toBeTruthy();
  });

  it('re-runs the search after 500 ms without filter changes, sending only the changed filter', async () => {
    const { sent } = scriptedFetch(respond);
    await renderSearch();
    await wait(2100);
    expect(searchCalls(sent)).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: /^Filters/ }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Breed' }), { target: { value: 'Tabby' } });
    await wait(300);
    fireEvent.change(screen.getByRole('slider', { name: 'Minimum rating' }), { target: { value: '3.5' } });
    await wait(499);
    expect(searchCalls(sent)).toHaveLength(1);
    await wait(10);
    expect(searchCalls(sent).map((r) => r.url)).toEqual([
      '/api/search/cats?per_page=20',
      '/api/search/cats?breed=Tabby&min_rating=3.5&per_page=20',
    ]);
    expect(screen.getByText('!')).toBeTruthy();
  });

  it('runs the matching search at once when the tab changes', async () => {
    const { sent } = scriptedFetch(respond);
    const router = await renderSearch();
    await wait(2100);
    fireEvent.click(screen.getByRole('tab', { name: 'Search Bodegas' }));
    await wait(1);
    expect(searchCalls(sent).at(-1)!.url).toBe('/api/search/bodegas?per_page=20');
    expect(router.state.location.search).toBe('?tab=bodegas');
    expect(screen.getByRole('heading', { name: 'Bodegas Found (0)' })).toBeTruthy();
  });

  it("shows 'Retry Filters' only after the filter options failed to load", async () => {
    let fail = true;
    scriptedFetch((request) =>
      request.url.startsWith('/api/search/filters') && fail
        ? { status: 503, body: { error: 'Search is warming up', code: 'unavailable' } }
        : respond(request),
    );
    await renderSearch();
    expect(screen.queryByRole('button', { name: 'Retry Filters' })).toBeNull();
    await wait(2100);
    const retry = screen.getByRole('button', { name: 'Retry Filters' });
    fail = false;
    fireEvent.click(retry);
    await wait(10);
    expect(screen.queryByRole('button', { name: 'Retry Filters' })).toBeNull();
  });
});
