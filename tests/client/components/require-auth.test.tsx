import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { RequireAuth } from '../../../client/src/components/RequireAuth.tsx';
import { useSession } from '../../../client/src/features/auth/stores/session.ts';

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <p>Home page</p> },
      { path: '/login', element: <p>Login page</p> },
      {
        path: '/saved',
        element: (
          <RequireAuth>
            <p>Saved page</p>
          </RequireAuth>
        ),
      },
    ],
    { initialEntries: ['/', path], initialIndex: 1 },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => useSession.setState({ user: null, token: null, loading: false, readyAt: 0 }));
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
});
