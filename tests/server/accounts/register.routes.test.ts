import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';

describe('creating an account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ worker: false });
  });
  afterAll(async () => t.close());

  const register = (body: Record<string, unknown>) => call(t.app, 'POST', '/api/auth/register', body);

  it('creates the account and signs the new user in', async () => {
    const res = await register({ username: 'tabby.fan', email: 'Tabby@Example.test', password: 'meow12' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      user: { id: expect.any(Number), username: 'tabby.fan', email: 'Tabby@Example.test', role: 'member' },
    });
    const profile = await call(t.app, 'GET', '/api/auth/profile', undefined, res.body.access_token);
    expect(profile).toMatchObject({ status: 200, body: { user: res.body.user } });
  });

  it('accepts a 6-character password and refuses a 5-character one', async () => {
    const short = await register({ username: 'shorty', email: 'shorty@example.test', password: '12345' });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({
      error: 'Password must be at least 6 characters long',
      code: 'invalid_input',
      details: { password: 'Password must be at least 6 characters long' },
    });
    const exact = await register({ username: 'shorty', email: 'shorty@example.test', password: '123456' });
    expect(exact.status).toBe(201);
  });

  it('refuses a password longer than 200 characters and accepts 200', async () => {
    const long = await register({
      username: 'longpw',
      email: 'longpw@example.test',
      password: 'x'.repeat(201),
    });
    expect(long.status).toBe(400);
    expect(long.body.details).toEqual({ password: 'Password must be at most 200 characters long' });
    const max = await register({
      username: 'longpw',
      email: 'longpw@example.test',
      password: 'x'.repeat(200),
    });
    expect(max.status).toBe(201);
  });

  it('holds usernames to 3..30 letters, digits, _ . -', async () => {
    for (const username of ['ab', 'a'.repeat(31), 'has space', 'emoji😺', 'at@sign', 'semi;colon']) {
      const res = await register({ username, email: 'rules@example.test', password: 'secret1' });
      expect(res.status, username).toBe(400);
      expect(Object.keys(res.body.details), username).toEqual(['username']);
    }
    for (const username of ['abc', 'a'.repeat(30), 'Dot.Dash-Under_9']) {
      const res = await register({ username, email: `${username}@example.test`, password: 'secret1' });
      expect(res.status, username).toBe(201);
    }
  });

  it('refuses an invalid email address', async () => {
    for (const email of [
      '',
      'plain',
      'no-at.example.test',
      'two@@example.test',
      'a@b',
      'a b@example.test',
      'a@example.',
    ]) {
      const res = await register({ username: 'mailer', email, password: 'secret1' });
      expect(res.status, email).toBe(400);
      expect(Object.keys(res.body.details), email).toEqual(['email']);
    }
  });

  it('names every bad field at once', async () => {
    const res = await register({ username: 'x', email: 'nope', password: '1' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details).sort()).toEqual(['email', 'password', 'username']);
  });

  it('refuses missing fields, wrong types and unknown keys', async () => {
    expect((await register({ username: 'lack', password: 'secret1' })).body.details).toEqual({
      email: 'is required',
    });
    expect(
      (await register({ username: 'typed', email: 'typed@example.test', password: 123456 })).status,
    ).toBe(400);
    const extra = await register({
      username: 'extra',
      email: 'extra@example.test',
      password: 'secret1',
      admin: true,
    });
    expect(extra.status).toBe(400);
    expect(extra.body.details).toEqual({ admin: 'is not a known field' });
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('detects a duplicate username or email whatever its case, naming the field', async () => {
    await register({ username: 'MangoLover', email: 'mango@example.test', password: 'secret1' });
    const sameName = await register({
      username: 'mangolover',
      email: 'other@example.test',
      password: 'secret1',
    });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toEqual({
      error: 'This username is already taken',
      code: 'already_registered',
      details: { username: 'This username is already taken' },
    });
    const sameEmail = await register({
      username: 'mango2',
      email: 'MANGO@Example.TEST',
      password: 'secret1',
    });
    expect(sameEmail.status).toBe(409);
    expect(Object.keys(sameEmail.body.details)).toEqual(['email']);
    expect(sameEmail.body.error).toBe('An account with this email address already exists');
    const both = await register({ username: 'MANGOLOVER', email: 'mango@EXAMPLE.test', password: 'secret1' });
    expect(Object.keys(both.body.details).sort()).toEqual(['email', 'username']);
  });

  it('lets only one of two racing sign-ups with the same name through', async () => {
    const results = await Promise.all(
      ['race1@example.test', 'race2@example.test', 'race3@example.test'].map((email) =>
        register({ username: 'Racer', email, password: 'secret1' }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const loser of results.filter((r) => r.status === 409))
      expect(loser.body.details).toEqual({ username: 'This username is already taken' });
  });

  it('stores only a salted scrypt hash, never the password, and never returns it', async () => {
    const a = await register({
      username: 'samepw1',
      email: 'samepw1@example.test',
      password: 'correct horse',
    });
    const b = await register({
      username: 'samepw2',
      email: 'samepw2@example.test',
      password: 'correct horse',
    });
    const rows = await t.services.database.db
      .selectFrom('users')
      .select(['username', 'password_hash'])
      .where('username', 'in', ['samepw1', 'samepw2'])
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
      expect(row.password_hash).not.toContain('correct horse');
    }
    expect(rows[0]!.password_hash).not.toBe(rows[1]!.password_hash);
    for (const res of [a, b]) {
      const text = JSON.stringify(res.body);
      expect(text).not.toMatch(/scrypt|password|correct horse/);
    }
    const events = await t.services.database.db.selectFrom('events').select(['data']).execute();
    expect(JSON.stringify(events)).not.toMatch(/scrypt|correct horse/);
  });
});
