import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordView } from '../../../server/lists/recently-viewed.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { addBodega, addCat, signUp, type Member } from './fixtures.ts';

describe('email addresses stay private', () => {
  let t: TestApp;
  let alice: Member;
  let bob: Member;
  let bodegaId: number;
  let catId: number;

  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    alice = await signUp(t, 'alice');
    bob = await signUp(t, 'bob');
    bodegaId = await addBodega(t.services, 'Alice’s Deli', alice.id);
    catId = await addCat(t.services, bodegaId, 'Marmalade', alice.id);
    await recordView(t.services.database.db, bob.id, 'cat', catId);
    await recordView(t.services.database.db, bob.id, 'bodega', bodegaId, new Date(Date.now() + 10));
  });
  afterAll(async () => t.close());

  it('appears only in the caller’s own profile and auth responses', async () => {
    const own = [
      await call(t.app, 'GET', '/api/auth/profile', undefined, bob.token),
      await call(t.app, 'POST', '/api/auth/login', { username: 'bob', password: 'whiskers1' }),
    ];
    for (const res of own) {
      expect(res.status).toBe(200);
      expect(res.body.user.email).toBe(bob.email);
      expect(JSON.stringify(res.body)).not.toContain(alice.email);
    }

    const others = [
      await call(t.app, 'POST', `/api/cats/${catId}/save`, undefined, bob.token),
      await call(t.app, 'POST', `/api/bodegas/${bodegaId}/save`, undefined, bob.token),
      await call(t.app, 'GET', '/api/users/savedcats', undefined, bob.token),
      await call(t.app, 'GET', '/api/users/savedbodegas', undefined, bob.token),
      await call(t.app, 'GET', '/api/users/recently-viewed', undefined, bob.token),
      await call(t.app, 'DELETE', `/api/cats/${catId}/save`, undefined, bob.token),
      await call(t.app, 'DELETE', '/api/users/clear-recently-viewed', undefined, bob.token),
      await call(t.app, 'POST', '/api/auth/login', { username: alice.email, password: 'wrong-password' }),
      await call(t.app, 'POST', '/api/auth/register', {
        username: 'mallory',
        email: alice.email,
        password: 'secret1',
      }),
      await call(t.app, 'POST', '/api/auth/register', {
        username: 'alice',
        email: 'x@example.test',
        password: 'secret1',
      }),
    ];
    for (const res of others) {
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(alice.email);
      expect(text).not.toContain(bob.email);
      expect(text).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/);
    }
    // The lists did show Alice's entries (so the check above looked at real content).
    expect(JSON.stringify(others[2]!.body)).toContain('Marmalade');
    expect(JSON.stringify(others[4]!.body)).toContain('Alice’s Deli');
  });
});
