import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router-dom';
import { AppLayout } from '../../../../client/src/app/layout/AppLayout.tsx';
import { RequireAuth } from '../../../../client/src/features/auth/components/RequireAuth.tsx';
import { useSession } from '../../../../client/src/features/auth/stores/session.ts';

/**
 * Home, login and a guarded saved page at `path` (one entry after home), inside `layout`: a bare
 * outlet, or the app's own layout, which ends a sign-out's move at the next location.
 */
function renderAt(path: string, layout: ReactNode = <Outlet />) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: layout,
        children: [
          { index: true, element: <p>Home page</p> },
          { path: 'login', element: <p>Login page</p> },
          {
            path: 'saved',
            element: (
              <RequireAuth>
                <p>Saved page</p>
              </RequireAuth>
            ),
          },
        ],
      },
    ],
    { initialEntries: ['/', path], initialIndex: 1 },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() =>
  useSession.setState({ user: null, token: null, loading: false, leaving: false, readyAt: 0 }),
);
afterEach(cleanup);

describe('the route guard', () => {
  it('shows a spinner while the session is loading', () => {
    useSession.setState({ loading: true });
    renderAt('/saved');
    expect(screen.getByRole('status').textContent).toContain('Loading...');
    expect(screen.queryByText('Saved page')).toBeNull();
  });

  it('sends a signed-out visitor to /login, replacing the history entry', () => {
    const router = renderAt('/saved');
    expect(screen.getByText('Login page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('shows the page to a signed-in user', () => {
    useSession.setState({ user: { id: 1, username: 'alice' }, token: 't' });
    renderAt('/saved');
    expect(screen.getByText('Saved page')).toBeTruthy();
  });

  it('redirects once loading ends without a user', () => {
    useSession.setState({ loading: true });
    const router = renderAt('/saved');
    act(() => useSession.setState({ loading: false }));
    expect(router.state.location.pathname).toBe('/login');
  });

  it('leaves a page signed out of by hand to the sign-out, which goes home, and guards it again after', async () => {
    useSession.setState({ user: { id: 1, username: 'alice' }, token: 't' });
    const router = renderAt('/saved', <AppLayout />);
    expect(screen.getByText('Saved page')).toBeTruthy();
    // The session ends first and the page renders without it before the move home starts.
    act(() => useSession.getState().logout());
    expect(screen.queryByText('Saved page')).toBeNull();
    expect(router.state.location.pathname).toBe('/saved');
    await act(() => router.navigate('/'));
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByText('Home page')).toBeTruthy();
    expect(useSession.getState().leaving).toBe(false);
    await act(() => router.navigate('/saved'));
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends someone whose session expired on a guarded page to /login', () => {
    useSession.setState({ user: { id: 1, username: 'alice' }, token: 't' });
    const router = renderAt('/saved', <AppLayout />);
    act(() => useSession.getState().expire());
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByText('Login page')).toBeTruthy();
  });
});
