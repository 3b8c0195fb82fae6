// Test storage: a fresh database per test file. Real Postgres from TEST_DATABASE_URL (each file gets
// a copy of a migrated template database), else embedded PGlite in memory (started from a migrated
// template's dump when global-setup wrote one). Redis from
// TEST_REDIS_URL with a fresh queue prefix per file, else the in-process queue.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { loadConfig } from '../../server/config.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { useDataKey } from '../../server/events/personal.ts';
import { createBullQueue } from '../../server/queue/bullmq.ts';
import { createInlineQueue } from '../../server/queue/inline.ts';
import type { JobQueue } from '../../server/queue/queue.ts';

/** The migrated template each test database is copied from; one per test run (see global-setup). */
export function templateDatabaseName(): string {
  return process.env.TEST_TEMPLATE_DB ?? 'bodega_test_template';
}

export function storageMode(): 'postgres' | 'pglite' {
  return process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
}

export function withDatabaseName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export type TestDatabase = { database: Database; url: string | null; drop(): Promise<void> };

export async function createTestDatabase(): Promise<TestDatabase> {
  // Tests that append without building services still seal personal fields: the tests' fixed key.
  useDataKey(loadConfig({ NODE_ENV: 'test' }).dataKey);
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const database = await openDatabase({
      url: null,
      embeddedCopyOf: process.env.TEST_EMBEDDED_TEMPLATE ?? null,
    });
    await migrateToLatest(database.db);
    return { database, url: null, drop: () => database.close() };
  }
  const name = `bodega_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`create database ${name} template ${templateDatabaseName()}`);
        break;
      } catch (error) {
        if (attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  } finally {
    await admin.end();
  }
  const url = withDatabaseName(adminUrl, name);
  const database = await openDatabase({ url, poolSize: 20 });
  return {
    database,
    url,
    async drop() {
      await database.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await a.end();
    },
  };
}

export function createTestQueue(database: Database): { queue: JobQueue; prefix: string | null } {
  const url = process.env.TEST_REDIS_URL;
  if (!url) return { queue: createInlineQueue(database, { pollMs: 200 }), prefix: null };
  const prefix = `bodega_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  return { queue: createBullQueue({ url, prefix, onError: () => {} }), prefix };
}
