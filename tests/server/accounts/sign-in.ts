// What the sign-in limit tests share: an app with these limits and some registered accounts (each
// `<name>@example.test` with the password `right-password`), and a sign-in from a given address.
import type { LoginLimits } from '../../../server/config.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import type { Json } from '../../helpers/json.ts';

export async function appWithAccounts(limits: LoginLimits, usernames: string[]): Promise<TestApp> {
  const t = await createTestApp({ worker: false, config: { login: limits } });
  for (const username of usernames)
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { username, email: `${username}@example.test`, password: 'right-password' },
    });
  return t;
}

/** Everything a client can read of a sign-in's answer (but its timing). */
export type SignInAnswer = { status: number; body: Json; retryAfter: string | undefined };

export async function signIn(
  t: TestApp,
  username: string,
  password: string,
  address: string,
): Promise<SignInAnswer> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: address,
    payload: { username, password },
  });
  const retryAfter = res.headers['retry-after'];
  return {
    status: res.statusCode,
    body: res.json(),
    retryAfter: retryAfter === undefined ? undefined : String(retryAfter),
  };
}
