// Runs once per test run: picks the storage (TEST_DATABASE_URL / TEST_REDIS_URL, else
// testcontainers when a Docker engine answers, else embedded) and migrates the template database:
// on Postgres a database each test file's is created from, embedded a dump each one starts from.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { withDatabaseName } from './storage.ts';

async function dockerAnswers(): Promise<boolean> {
  if (process.env.TEST_EMBEDDED === '1') return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await Promise.race([
      getContainerRuntimeClient(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 3000)),
    ]);
    return true;
  } catch {
    return false;
  }
}

export default async function setup(): Promise<() => Promise<void>> {
  const stops: (() => Promise<unknown>)[] = [];
  if (!process.env.TEST_DATABASE_URL && (await dockerAnswers())) {
    const { GenericContainer, Wait } = await import('testcontainers');
    const postgres = await new GenericContainer('postgres:16')
      .withEnvironment({ POSTGRES_PASSWORD: 'test', POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start();
    stops.push(() => postgres.stop());
    process.env.TEST_DATABASE_URL = `postgres://postgres:test@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`;
    if (!process.env.TEST_REDIS_URL) {
      const redis = await new GenericContainer('redis:7').withExposedPorts(6379).start();
      stops.push(() => redis.stop());
      process.env.TEST_REDIS_URL = `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`;
    }
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    // Starting PGlite from a dump skips its initdb and the migrations: about 1.8 s a file, not 4.9.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bodega-test-template-'));
    const db = await openDatabase({ url: null });
    try {
      await migrateToLatest(db.db);
      await writeFile(path.join(dir, 'template.tar'), await db.embedded!.dump());
    } finally {
      await db.close();
    }
    process.env.TEST_EMBEDDED_TEMPLATE = path.join(dir, 'template.tar');
    stops.push(() => rm(dir, { recursive: true, force: true }));
  } else {
    // One template per run, so concurrent runs against the same server never disturb each other.
    const template = `bodega_test_template_${process.pid}`;
    process.env.TEST_TEMPLATE_DB = template;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${template} with (force)`);
    await admin.query(`create database ${template}`);
    await admin.end();
    const db = await openDatabase({ url: withDatabaseName(adminUrl, template), poolSize: 1 });
    await migrateToLatest(db.db);
    await db.close();
    stops.push(async () => {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${template} with (force)`).catch(() => {});
      await a.end();
    });
  }
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
