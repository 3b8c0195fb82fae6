// The screens that index.html paints before the app's code has run, rendered at build time by the
// app's own components (scripts/prerender.ts), so they are what React's first commit puts in #root.
import { StrictMode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createHashRouter } from 'react-router-dom';
import { App } from '../app/App.tsx';
import { routes } from '../app/router.tsx';
import { useSession } from '../features/auth/index.ts';

/**
 * Routes whose first screen needs no code beyond the shell and nothing from the server: the home
 * page, and the search page's heading with the spinner its controls load behind. (Every other
 * route's screen is in its own chunk, so the first commit there leaves #root empty.) They are
 * rendered for a visitor with no stored session token; one with a token sees the session check's
 * full-page spinner first, which show-frame.js leaves to the app.
 */
export const PRERENDERED_ROUTES = ['/', '/search'] as const;

/**
 * A window that holds only a location, for the hash router outside a browser: links render with
 * the same `#/...` addresses the browser's router gives them.
 */
function windowAt(route: string): Window {
  const href = `http://localhost/#${route}`;
  return {
    location: {
      href,
      origin: 'http://localhost',
      protocol: 'http:',
      pathname: '/',
      search: '',
      hash: `#${route}`,
    },
    history: { state: null, replaceState() {}, pushState() {}, go() {} },
    document: { querySelector: () => null },
    addEventListener() {},
    removeEventListener() {},
  } as unknown as Window;
}

/** The markup of React's first commit into #root at `route`, for a visitor with no stored token. */
export function renderFrame(route: string): string {
  // A server render reads each store's initial state; with no storage here that is signed out.
  const session = useSession.getInitialState();
  if (session.loading || session.user || session.token)
    throw new Error('prerendering needs a signed-out session');
  // hydrationData: without it the router looks for data on a global `window`, which Node lacks.
  const router = createHashRouter(routes, { window: windowAt(route), hydrationData: {} });
  try {
    return renderToStaticMarkup(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    );
  } finally {
    router.dispose();
  }
}
