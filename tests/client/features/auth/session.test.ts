import toast from 'react-hot-toast/headless';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SESSION_EXPIRED_MESSAGE,
  TOKEN_STORAGE_KEY,
  useSession,
} from '../../../../client/src/features/auth/stores/session.ts';
import { loginMutation } from '../../../../client/src/features/auth/api/login.ts';
import { registerMutation } from '../../../../client/src/features/auth/api/register.ts';
import { api, setBearerToken } from '../../../../client/src/lib/api.ts';
import { scriptedFetch } from '../../helpers.ts';
import { runMutation } from '../../query.tsx';

const alice = { id: 1, username: 'alice', email: 'alice@example.com' };

beforeEach(() => {
  localStorage.clear();
  setBearerToken(null);
  useSession.setState({ user: null, token: null, loading: true, readyAt: null });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the session check at start', () => {
  it('ends at once, signed out, when no token is stored', async () => {
    const { sent } = scriptedFetch(() => ({ status: 500 }));
    await useSession.getState().init();
    expect(useSession.getState()).toMatchObject({ user: null, token: null, loading: false });
    expect(useSession.getState().readyAt).not.toBeNull();
    expect(sent).toHaveLength(0);
  });

  it('fetches the profile with the stored token and signs the user in', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'stored-token');
    const { sent } = scriptedFetch(() => ({ status: 200, body: { user: alice } }));
    await useSession.getState().init();
    expect(sent[0]).toMatchObject({
      url: '/api/auth/profile',
      headers: { Authorization: 'Bearer stored-token' },
    });
    expect(useSession.getState()).toMatchObject({ user: alice, token: 'stored-token', loading: false });
  });

  it('discards a token the server refuses, quietly', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'old-token');
    scriptedFetch(() => ({ status: 401, body: { error: 'Token expired', code: 'unauthorized' } }));
    const shown = vi.spyOn(toast, 'error');
    await useSession.getState().init();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(useSession.getState()).toMatchObject({ user: null, token: null, loading: false });
    expect(shown).not.toHaveBeenCalled();
  });

  it('stops waiting after 3000 ms when the profile never answers', async () => {
    vi.useFakeTimers();
    localStorage.setItem(TOKEN_STORAGE_KEY, 'slow-token');
    scriptedFetch(() => 'never');
    void useSession.getState().init();
    await vi.advanceTimersByTimeAsync(2999);
    expect(useSession.getState().loading).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(useSession.getState().loading).toBe(false);
  });

  it('shares one check between two callers', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 't');
    const { sent } = scriptedFetch(() => ({ status: 200, body: { user: alice } }));
    await Promise.all([useSession.getState().init(), useSession.getState().init()]);
    expect(sent).toHaveLength(1);
  });
});

describe('signing in and out', () => {
  it('stores the token from login and uses it as the bearer credential', async () => {
    const { sent } = scriptedFetch((request) =>
      request.url === '/api/auth/login'
        ? { status: 200, body: { access_token: 'fresh', user: alice } }
        : { status: 200, body: { saved_cats: [] } },
    );
    await runMutation(loginMutation, { usernameOrEmail: 'alice@example.com', password: 'secret1' });
    expect(sent[0]!.body).toEqual({ username: 'alice@example.com', password: 'secret1' });
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('fresh');
    expect(useSession.getState()).toMatchObject({ user: alice, token: 'fresh', loading: false });
    await api.get('/api/users/savedcats');
    expect(sent[1]!.headers.Authorization).toBe('Bearer fresh');
  });

  it('registers with username, email and password and signs in', async () => {
    const { sent } = scriptedFetch(() => ({ status: 201, body: { access_token: 'new', user: alice } }));
    await runMutation(registerMutation, {
      username: 'alice',
      email: 'alice@example.com',
      password: 'secret1',
    });
    expect(sent[0]).toMatchObject({
      url: '/api/auth/register',
      method: 'POST',
      body: { username: 'alice', email: 'alice@example.com', password: 'secret1' },
    });
    expect(useSession.getState().user).toEqual(alice);
  });

  it('leaves the session untouched when login fails', async () => {
    scriptedFetch(() => ({
      status: 401,
      body: { error: 'Invalid username or password', code: 'unauthorized' },
    }));
    await expect(
      runMutation(loginMutation, { usernameOrEmail: 'alice', password: 'wrong' }),
    ).rejects.toMatchObject({
      message: 'Invalid username or password',
    });
    expect(useSession.getState().user).toBeNull();
  });

  it('logout removes the token, clears the user and drops the credential', async () => {
    const { sent } = scriptedFetch(() => ({ status: 200, body: { access_token: 'fresh', user: alice } }));
    await runMutation(loginMutation, { usernameOrEmail: 'alice', password: 'secret1' });
    useSession.getState().logout();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(useSession.getState()).toMatchObject({ user: null, token: null });
    await api.get('/api/search/cats');
    expect(sent[1]!.headers).not.toHaveProperty('Authorization');
  });

  it('signs out with a toast when a signed-in call comes back 401', async () => {
    scriptedFetch((request) =>
      request.url === '/api/auth/login'
        ? { status: 200, body: { access_token: 'soon-expired', user: alice } }
        : { status: 401, body: { error: 'Token expired', code: 'unauthorized' } },
    );
    const shown = vi.spyOn(toast, 'error');
    await runMutation(loginMutation, { usernameOrEmail: 'alice', password: 'secret1' });
    await expect(api.get('/api/users/savedcats')).rejects.toMatchObject({ status: 401 });
    expect(useSession.getState()).toMatchObject({ user: null, token: null });
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(shown).toHaveBeenCalledWith(
      SESSION_EXPIRED_MESSAGE,
      expect.objectContaining({ id: 'session-expired' }),
    );
  });
});

describe('reading the profile again', () => {
  const signedIn = () => {
    setBearerToken('live-token');
    useSession.setState({ user: alice, token: 'live-token', loading: false, readyAt: 1 });
  };

  it('takes a role granted since sign-in, one read at a time', async () => {
    signedIn();
    const { sent } = scriptedFetch(() => ({ status: 200, body: { user: { ...alice, role: 'moderator' } } }));
    await Promise.all([useSession.getState().refresh(), useSession.getState().refresh()]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      url: '/api/auth/profile',
      headers: { Authorization: 'Bearer live-token' },
    });
    expect(useSession.getState().user).toEqual({ ...alice, role: 'moderator' });
  });

  it('ends the session when the account is gone', async () => {
    signedIn();
    localStorage.setItem(TOKEN_STORAGE_KEY, 'live-token');
    scriptedFetch(() => ({
      status: 401,
      body: { error: 'This account no longer exists.', code: 'unauthorized' },
    }));
    const shown = vi.spyOn(toast, 'error');
    await useSession.getState().refresh();
    expect(useSession.getState()).toMatchObject({ user: null, token: null });
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(shown).toHaveBeenCalledWith(
      SESSION_EXPIRED_MESSAGE,
      expect.objectContaining({ id: 'session-expired' }),
    );
  });

  it('keeps the session through a failed read, and asks nothing signed out', async () => {
    signedIn();
    scriptedFetch(() => 'network-error');
    await useSession.getState().refresh();
    expect(useSession.getState()).toMatchObject({ user: alice, token: 'live-token' });
    useSession.getState().logout();
    const { sent } = scriptedFetch(() => ({ status: 200, body: { user: alice } }));
    await useSession.getState().refresh();
    expect(sent).toHaveLength(0);
  });
});
