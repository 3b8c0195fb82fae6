// The routes table of the product (hash-based locations). Every screen is its own lazily loaded
// chunk, so the home route downloads only the shell and the home page.
import { lazy, type ComponentType } from 'react';
import { createHashRouter, type RouteObject } from 'react-router-dom';
import { PageNotFound } from '../components/PageMessage.tsx';
import { RouteError } from '../components/RouteError.tsx';
import { RequireAuth } from '../features/auth/index.ts';
import { AppLayout } from './layout/AppLayout.tsx';
// The landing page and the search heading ship with the shell: they are tiny, and loading them
// lazily would add a round trip before the first meaningful paint. So does the page-not-found
// message, which RouteError's 404 shows too.
import HomePage from '../features/home/routes/HomePage.tsx';
import { SearchRoute } from '../features/search/routes/SearchRoute.tsx';

type PageModule = { default: ComponentType };

// The search screen below its heading (the heading ships with the shell, see SearchRoute), loaded
// once: when the search route first renders, or as the app starts on it (see createAppRouter).
let searchPageModule: Promise<PageModule> | undefined;
function loadSearchPage(): Promise<PageModule> {
  return (searchPageModule ??= withServerData(() => import('../features/search/routes/SearchPage.tsx')));
}
const SearchPage = lazy(loadSearchPage);

/** A page's module with the server-data cache around the page; the cache's code loads with it. */
async function withServerData(load: () => Promise<PageModule>): Promise<PageModule> {
  const [{ default: Page }, { QueryProvider }] = await Promise.all([load(), import('./query-provider.tsx')]);
  return {
    default: () => (
      <QueryProvider>
        <Page />
      </QueryProvider>
    ),
  };
}

/** A page in its own chunk, loaded when its route is first visited. */
function page(load: () => Promise<PageModule>): RouteObject['lazy'] {
  return async () => ({ Component: (await withServerData(load)).default });
}

/** A page for signed-in users only; the guard sends everyone else to /login. */
function guarded(load: () => Promise<PageModule>): RouteObject['lazy'] {
  return async () => {
    const Page = (await withServerData(load)).default;
    return {
      Component: () => (
        <RequireAuth>
          <Page />
        </RequireAuth>
      ),
    };
  };
}

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, Component: HomePage },
      { path: 'login', lazy: page(() => import('../features/auth/routes/LoginPage.tsx')) },
      { path: 'register', lazy: page(() => import('../features/auth/routes/RegisterPage.tsx')) },
      { path: 'search', element: <SearchRoute page={SearchPage} /> },
      { path: 'cat/:id', lazy: page(() => import('../features/cats/routes/CatDetailPage.tsx')) },
      { path: 'cat/:id/edit', lazy: page(() => import('../features/cats/routes/CatEditPage.tsx')) },
      { path: 'bodega/:id', lazy: page(() => import('../features/bodegas/routes/BodegaDetailPage.tsx')) },
      { path: 'bodega/:id/edit', lazy: page(() => import('../features/bodegas/routes/BodegaEditPage.tsx')) },
      { path: 'saved', lazy: guarded(() => import('../features/saved/routes/SavedPage.tsx')) },
      {
        path: 'recently-viewed',
        lazy: guarded(() => import('../features/recently-viewed/routes/RecentlyViewedPage.tsx')),
      },
      { path: 'upload', lazy: guarded(() => import('../features/upload/routes/UploadPage.tsx')) },
      { path: 'settings', lazy: guarded(() => import('../features/auth/routes/SettingsPage.tsx')) },
      { path: 'moderation', lazy: guarded(() => import('../features/moderation/routes/ModerationPage.tsx')) },
      { path: '*', Component: PageNotFound },
    ],
  },
];

export function createAppRouter() {
  const router = createHashRouter(routes);
  // Opened on the search route, its screen's code starts loading now, in a task of its own, as a
  // `lazy` route's code does when the router starts: not once React has started and rendered the
  // route, and not inside that render (linking its chunk's dependencies was part of a long task).
  // A failure is React's to show when it renders the route (the same promise).
  if (router.state.matches.some((match) => match.route.path === 'search'))
    setTimeout(() => void loadSearchPage().catch(() => {}));
  return router;
}
