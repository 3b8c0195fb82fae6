// The account settings screen: changing the password (the app's rules first, then the server's
// answer, the fresh token replacing the session's) and signing out everywhere after a confirmation.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NavBar } from '../../../../client/src/app/layout/NavBar.tsx';
import SettingsPage from '../../../../client/src/features/auth/routes/SettingsPage.tsx';
import { SIGN_OUT_EVERYWHERE_CONFIRMATION } from '../../../../client/src/features/auth/components/SignOutEverywhere.tsx';
import { TOKEN_STORAGE_KEY, useSession } from '../../../../client/src/features/auth/stores/session.ts';
import { setBearerToken } from '../../../../client/src/lib/api.ts';
import { scriptedFetch, type Responder } from '../../helpers.ts';
import { cleanUpScreen, renderRoutes, stubConfirm } from '../../screens.tsx';

const alice = { id: 1, username: 'alice', email: 'alice@example.com' };

function renderSettings(respond: Responder) {
  const fetch = scriptedFetch(respond);
  const router = renderRoutes(
    [
      { path: '/settings', element: <SettingsPage /> },
      { path: '/login', element: <p>Login page</p> },
    ],
    '/settings',
  );
  return { ...fetch, router };
}

function fillPasswords(current: string, next: string, confirm: string) {
  fireEvent.change(screen.getByLabelText('Current password'), { target: { value: current } });
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: next } });
  fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(TOKEN_STORAGE_KEY, 'old-token');
  setBearerToken('old-token');
  useSession.setState({ user: alice, token: 'old-token', loading: false, readyAt: 1 });
});

afterEach(cleanUpScreen);

describe('changing the password', () => {
  it('names the account and labels every field', () => {
    renderSettings(() => ({ status: 500 }));
    expect(screen.getByRole('heading', { level: 1, name: 'Account settings' })).toBeTruthy();
    expect(screen.getByText('alice')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Change password' })).toBeTruthy();
    for (const label of ['Current password', 'New password', 'Confirm new password'])
      expect(screen.getByLabelText(label).getAttribute('type')).toBe('password');
    expect(screen.getByLabelText('Current password').getAttribute('autocomplete')).toBe('current-password');
    expect(screen.getByLabelText('New password').getAttribute('autocomplete')).toBe('new-password');
  });

  it('holds the new password to the app rules before sending anything', async () => {
    const { sent } = renderSettings(() => ({ status: 500 }));
    fillPasswords('old-secret', 'new-secret', 'new-secreT');
    expect(await screen.findByText('Passwords do not match')).toBeTruthy();
    fillPasswords('old-secret', 'abc', 'abc');
    expect(await screen.findByText('Password must be at least 6 characters long')).toBeTruthy();
    expect(sent).toHaveLength(0);
  });

  it('sends the change, puts the fresh token in place of the old one and says so', async () => {
    const { sent } = renderSettings(() => ({ status: 200, body: { access_token: 'fresh-token' } }));
    fillPasswords('old-secret', 'new-secret', 'new-secret');
    expect(await screen.findByText('Password changed. Other devices have been signed out.')).toBeTruthy();
    expect(sent).toEqual([
      expect.objectContaining({
        url: '/api/auth/password',
        method: 'PUT',
        headers: expect.objectContaining({ Authorization: 'Bearer old-token' }),
        body: { current_password: 'old-secret', new_password: 'new-secret' },
      }),
    ]);
    expect(useSession.getState()).toMatchObject({ user: alice, token: 'fresh-token' });
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('fresh-token');
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('New password') as HTMLInputElement).value).toBe('');
  });

  it("shows the server's refusal and keeps the session when the current password is wrong", async () => {
    renderSettings(() => ({
      status: 403,
      body: { error: 'Current password is incorrect', code: 'forbidden' },
    }));
    fillPasswords('not-it', 'new-secret', 'new-secret');
    expect(await screen.findByText('Current password is incorrect')).toBeTruthy();
    expect(useSession.getState()).toMatchObject({ user: alice, token: 'old-token' });
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('not-it');
    expect(screen.getByRole('button', { name: 'Change password' }).hasAttribute('disabled')).toBe(false);
  });

  it('shows the wait when the attempts are limited', async () => {
    const error = 'Too many failed sign-in attempts. Please wait 1 minute and try again.';
    renderSettings(() => ({
      status: 429,
      body: { error, code: 'rate_limited', details: { retry_after: 60 } },
    }));
    fillPasswords('guess', 'new-secret', 'new-secret');
    expect(await screen.findByText(error)).toBeTruthy();
  });
});

describe('signing out everywhere', () => {
  it('asks first, and sends nothing when the answer is no', () => {
    const confirm = stubConfirm(false);
    const { sent } = renderSettings(() => ({ status: 200, body: {} }));
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    expect(confirm).toHaveBeenCalledWith(SIGN_OUT_EVERYWHERE_CONFIRMATION);
    expect(sent).toHaveLength(0);
    expect(useSession.getState().token).toBe('old-token');
  });

  it('ends the session here too once the server has ended them all, and goes to sign-in', async () => {
    stubConfirm(true);
    const { sent, router } = renderSettings(() => ({ status: 200, body: {} }));
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByText('Signed out everywhere')).toBeTruthy();
    expect(sent).toEqual([expect.objectContaining({ url: '/api/auth/logout-all', method: 'POST' })]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(useSession.getState()).toMatchObject({ user: null, token: null });
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('keeps the session and says why when the server cannot do it', async () => {
    stubConfirm(true);
    renderSettings(() => 'network-error');
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByText(/Backend not available/)).toBeTruthy();
    expect(useSession.getState().token).toBe('old-token');
    expect(screen.getByRole('button', { name: 'Sign out everywhere' }).hasAttribute('disabled')).toBe(false);
  });
});

describe('the way to the settings', () => {
  it("links the nav's user name to the account settings", () => {
    render(
      <MemoryRouter>
        <NavBar />
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'Account settings (alice)' });
    expect(link.getAttribute('href')).toBe('/settings');
    expect(link.textContent).toContain('alice');
  });
});
