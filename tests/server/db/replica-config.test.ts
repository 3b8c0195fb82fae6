import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.ts';

const PRIMARY = 'postgres://app@db-primary:5432/bodega';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig({ NODE_ENV: 'test', ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('replica settings', () => {
  it('reads no replicas, a 5 s lag bound and a 200 ms read-your-writes wait by default', () => {
    expect(loadConfig({ NODE_ENV: 'test', DATABASE_URL: PRIMARY }).replicas).toEqual({
      urls: [],
      maxLagMs: 5000,
      waitMs: 200,
    });
  });

  it('reads comma-separated replica URLs and the bounds', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: PRIMARY,
      DATABASE_REPLICA_URLS: ' postgres://app@db-r1:5432/bodega, postgresql://app@db-r2/bodega ,',
      REPLICA_MAX_LAG_MS: '2000',
      REPLICA_WAIT_MS: '0',
    });
    expect(config.replicas).toEqual({
      urls: ['postgres://app@db-r1:5432/bodega', 'postgresql://app@db-r2/bodega'],
      maxLagMs: 2000,
      waitMs: 0,
    });
  });

  it('refuses replicas without DATABASE_URL, as embedded storage has none', () => {
    expect(problemsOf({ DATABASE_REPLICA_URLS: 'postgres://app@db-r1/bodega' })).toEqual([
      expect.stringContaining('DATABASE_REPLICA_URLS needs DATABASE_URL'),
    ]);
  });

  it('names a replica URL that is not a Postgres URL and bad bounds', () => {
    const problems = problemsOf({
      DATABASE_URL: PRIMARY,
      DATABASE_REPLICA_URLS: 'postgres://app@db-r1/bodega,redis://cache:6379',
      REPLICA_MAX_LAG_MS: '0',
      REPLICA_WAIT_MS: '-5',
    });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/DATABASE_REPLICA_URLS \(entry 2\) must start with postgres:/);
    expect(problems[1]).toMatch(/REPLICA_MAX_LAG_MS must be a positive whole number/);
    expect(problems[2]).toMatch(/REPLICA_WAIT_MS must be a positive whole number/);
  });
});
