// Who is signed in. The token lives in localStorage under `token`; at start the profile is
// checked, and the app waits for that check at most SESSION_TIMEOUT_MS before rendering. The
// writes that start or end a session (signing in and up, a new password, signing out everywhere,
// deleting the account) are mutations in api/, which tell this store what the server answered.
import toast from 'react-hot-toast/headless';
import { create } from 'zustand';
import { env } from '../../../config/env.ts';
import { ApiError, onUnauthorized, setBearerToken } from '../../../lib/api.ts';
import { getProfile } from '../api/get-profile.ts';
import type { AuthResponse, User } from '../types.ts';

export type { User } from '../types.ts';

export const TOKEN_STORAGE_KEY = 'token';
export const SESSION_TIMEOUT_MS = 3000;
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please log in again.';

export type SessionState = {
  user: User | null;
  token: string | null;
  loading: boolean;
  /** When the start-up session check ended (ms since epoch), or null while it runs. */
  readyAt: number | null;
  init(): Promise<void>;
  /**
   * Reads the profile again, without holding the page: a role granted or taken away since sign-in
   * shows in the nav, and an account ended elsewhere signs out here too (a 401 ends the session
   * as any does). Other failures change nothing. One read at a time.
   */
  refresh(): Promise<void>;
  /** The server signed someone in (a login, a new account, a new password): its token and user. */
  signIn(answer: AuthResponse): User;
  /**
   * The person ends the session themselves. The control they used moves the page on (Logout goes
   * home), so `leaving` is set until the next location: a guarded screen waits for that move
   * instead of sending them to /login, which would race it.
   */
  logout(): void;
  /** Set by logout() until the page moves on (AppLayout clears it at the next location). */
  leaving: boolean;
  /** The server stopped accepting the token: the session ends and guarded screens go to /login. */
  expire(): void;
};

function readStoredToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

function storeToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(TOKEN_STORAGE_KEY, token);
    else localStorage.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // Private mode or a full quota: the session still works for this tab.
  }
}

export const useSession = create<SessionState>()((set, get) => {
  let checking: Promise<void> | null = null;
  let refreshing: Promise<void> | null = null;

  async function checkStoredToken(): Promise<void> {
    const token = readStoredToken();
    if (!token || !env.apiConfigured) {
      storeToken(null);
      setBearerToken(null);
      set({ user: null, token: null, loading: false, readyAt: get().readyAt ?? Date.now() });
      return;
    }
    setBearerToken(token);
    set({ token, loading: true, readyAt: null });
    const safety = setTimeout(() => {
      // Stop waiting; a later init() may start a fresh check instead of joining this stuck one.
      checking = null;
      set({ loading: false, readyAt: Date.now() });
    }, SESSION_TIMEOUT_MS);
    try {
      const { user } = await getProfile();
      // A sign-in or sign-out while the check ran wins over the check's result.
      if (get().token === token) set({ user });
    } catch {
      if (get().token === token) {
        storeToken(null);
        setBearerToken(null);
        set({ user: null, token: null });
      }
    } finally {
      clearTimeout(safety);
      set({ loading: false, readyAt: get().readyAt ?? Date.now() });
    }
  }

  function signIn({ access_token, user }: AuthResponse): User {
    storeToken(access_token);
    setBearerToken(access_token);
    set({ user, token: access_token, loading: false, leaving: false, readyAt: get().readyAt ?? Date.now() });
    return user;
  }

  function endSession(): void {
    storeToken(null);
    setBearerToken(null);
    set({ user: null, token: null, loading: false, readyAt: get().readyAt ?? Date.now() });
  }

  return {
    user: null,
    token: null,
    leaving: false,
    // Without a stored token there is nothing to check: render the page on the first frame.
    loading: readStoredToken() !== null && env.apiConfigured,
    readyAt: null,

    init() {
      // One check at a time: a second caller (React's strict mode mounts twice) shares it.
      if (checking) return checking;
      const check = checkStoredToken().finally(() => {
        if (checking === check) checking = null;
      });
      checking = check;
      return check;
    },

    refresh() {
      const token = get().token;
      if (!token || !get().user || checking) return checking ?? Promise.resolve();
      refreshing ??= getProfile()
        .then(({ user }) => {
          if (get().token === token) set({ user });
        })
        .catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 401 && get().token === token) endExpiredSession();
        })
        .finally(() => {
          refreshing = null;
        });
      return refreshing;
    },

    signIn,

    logout() {
      endSession();
      set({ leaving: true });
    },

    expire() {
      endSession();
      set({ leaving: false });
    },
  };
});

// A token the server stopped accepting (expired, revoked) ends the session everywhere at once;
// guarded screens then redirect to /login instead of showing a half-broken page.
function endExpiredSession(): void {
  useSession.getState().expire();
  toast.error(SESSION_EXPIRED_MESSAGE, { id: 'session-expired' });
}

onUnauthorized(() => {
  if (useSession.getState().token) endExpiredSession();
});
