import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../../server/config.ts';

// No Docker engine runs where the tests run, so the compose file is checked for the topology it
// promises: the same topology the multi-process test starts with local Postgres and Redis.
describe('docker-compose topology', () => {
  const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true });
  const services = compose.services;

  it('runs postgres, redis, a one-shot migration, two api replicas, a worker and a proxy', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'migrate', 'postgres', 'proxy', 'redis', 'worker']);
    expect(services.api.deploy.replicas).toBe(2);
    expect(services.api.depends_on.migrate.condition).toBe('service_completed_successfully');
    expect(services.worker.depends_on.migrate.condition).toBe('service_completed_successfully');
  });

  it('shares the uploads volume between api and worker and health-checks every service', () => {
    expect(services.api.volumes).toContain('uploads:/data/uploads');
    expect(services.worker.volumes).toContain('uploads:/data/uploads');
    for (const name of ['postgres', 'redis', 'api']) expect(services[name].healthcheck).toBeDefined();
  });

  it('requires a JWT secret and runs production mode', () => {
    expect(services.api.environment.NODE_ENV).toBe('production');
    expect(services.api.environment.JWT_SECRET).toMatch(/\?/);
  });

  it('lets only the proxy state client addresses, from the address it saw', () => {
    const trust = String(services.api.environment.TRUST_PROXY).replace(/^\$\{TRUST_PROXY:-(.*)\}$/, '$1');
    expect(loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x', TRUST_PROXY: trust }).trustProxy).not.toBe(false);
    const nginx = readFileSync('ops/nginx.conf', 'utf8');
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    expect(nginx).not.toContain('$proxy_add_x_forwarded_for');
  });

  it('builds in stages and runs as a non-root user', () => {
    const dockerfile = readFileSync('Dockerfile', 'utf8');
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toMatch(/^USER node$/m);
  });

  it('runs the compiled bundles on plain Node, not a TypeScript loader', () => {
    const dockerfile = readFileSync('Dockerfile', 'utf8');
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/main\.js", "api"\]$/m);
    expect(dockerfile).toMatch(/^COPY --from=build .*\/app\/dist \.\/dist$/m);
    // package.json says "type": "module", which the bundles need to load as ES modules.
    expect(dockerfile).toMatch(/^COPY .*package\.json \.\/$/m);
    expect(dockerfile).not.toMatch(/^COPY .*(server|scripts|workers|migrations) /m);
    expect(services.migrate.command).toEqual(['node', 'dist/migrate.js']);
    expect(services.api.command).toEqual(['node', 'dist/main.js', 'api']);
    expect(services.worker.command).toEqual(['node', 'dist/main.js', 'worker']);
  });
});
