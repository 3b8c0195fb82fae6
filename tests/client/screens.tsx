// Helpers for tests that render whole screens: routes with the toasts, an item's page and edit page
// with their fetch scripted, confirm() answered, a live stream the test drives, and the clean-up.
import { act, cleanup, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import toast from 'react-hot-toast/headless';
import { Toaster } from '../../client/src/components/Toaster.tsx';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { vi } from 'vitest';
import { useLiveStore, type LiveStatus } from '../../client/src/features/live/store.ts';
import type { LiveListener, LiveMessage } from '../../client/src/features/live/types.ts';
import { scriptedFetch, type Reply, type Responder, type SentRequest } from './helpers.ts';

/** Answers a request, or leaves it (undefined) to the defaults. */
export type PartialResponder = (request: SentRequest) => Reply | undefined;

/** Renders the routes at `url`, with the toasts; answers the router, to see where the app went. */
export function renderRoutes(routes: RouteObject[], url: string) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  render(
    <>
      <RouterProvider router={router} />
      <Toaster />
    </>,
  );
  return router;
}

/** An item's edit page at /<kind>/<id>/edit, with the item's page and /search to go to. */
export function renderEditPage(kind: 'cat' | 'bodega', id: number, page: ReactElement, respond: Responder) {
  const fetch = scriptedFetch(respond);
  const router = renderRoutes(
    [
      { path: `/${kind}/:id/edit`, element: page },
      { path: `/${kind}/:id`, element: <p>Item page</p> },
      { path: '/search', element: <p>Search page</p> },
    ],
    `/${kind}/${id}/edit`,
  );
  return { ...fetch, router };
}

/**
 * An item's page at /<kind>/<id>. The fetch lets `respond` answer first; otherwise the item loads
 * with `body`, it has no reviews, and anything else is a 404.
 */
export function renderItemPage(
  kind: 'cat' | 'bodega',
  id: number,
  page: ReactElement,
  body: unknown,
  respond: PartialResponder = () => undefined,
) {
  const fetch = scriptedFetch((request) => {
    const own = respond(request);
    if (own) return own;
    if (request.url === `/api/${kind}s/${id}`) return { status: 200, body };
    if (request.url.startsWith(`/api/reviews/${kind}/${id}`))
      return {
        status: 200,
        body: { reviews: [], pagination: { page: 1, per_page: 20, total: 0, pages: 0 } },
      };
    return { status: 404, body: { error: 'Not found', code: 'not_found' } };
  });
  renderRoutes(
    [
      { path: `/${kind}/:id`, element: page },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    `/${kind}/${id}`,
  );
  return fetch;
}

export function stubConfirm(answer: boolean) {
  const confirm = vi.fn((_message?: string) => answer);
  vi.stubGlobal('confirm', confirm);
  return confirm;
}

/**
 * Puts a live stream the test drives in place of the real connection; answers a function that
 * delivers one message to everything listening.
 */
export function fakeLiveStream(connection: LiveStatus): (type: string, data: object) => void {
  const listeners = new Set<LiveListener>();
  useLiveStore.setState({
    connection,
    subscribe: (listener: LiveListener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  return (type, data) =>
    act(() =>
      listeners.forEach((l) =>
        l({ type, cursor: '1-1', at: '2026-11-21T20:00:00.000Z', data } as LiveMessage),
      ),
    );
}

/** For afterEach: unmounts, drops the toasts and undoes stubbed globals. */
export function cleanUpScreen(): void {
  cleanup();
  act(() => toast.remove());
  vi.unstubAllGlobals();
}
