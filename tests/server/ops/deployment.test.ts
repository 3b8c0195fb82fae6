import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../../server/config.ts';

// No Docker engine runs where the tests run, so these check what a build could get wrong without
// one: that the runtime image holds every module its processes import, and that the proxy and
// the api agree on who may state a client's address.

/** The paths the runtime stage copies from the build context (not from another stage). */
function runtimeCopies(dockerfile: string): string[] {
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  return [...runtime.matchAll(/^COPY (?!.*--from)(?:--\S+ )*(.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));
}

/** Every source file `entry` imports, directly or not, by relative path. */
function importedFiles(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const source = readFileSync(entry, 'utf8');
  for (const [, spec] of source.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
    const target = path.normalize(path.join(path.dirname(entry), spec!));
    if (/\.(ts|js|json)$/.test(target) && existsSync(target)) importedFiles(target, seen);
  }
  return seen;
}

describe('deployment', () => {
  const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true });
  const copied = runtimeCopies(readFileSync('Dockerfile', 'utf8'));
  const inImage = (file: string) => copied.some((c) => file === c || file.startsWith(`${c}/`));

  it('builds an image holding every module that the api and worker processes import', () => {
    const entries = Object.values(compose.services as Record<string, { command?: string[] }>)
      .flatMap((service) => service.command ?? [])
      .filter((arg) => arg.endsWith('.ts'));
    expect(entries).toContain('main.ts');
    for (const entry of new Set(entries)) {
      const missing = [...importedFiles(entry)].filter((file) => !inImage(file));
      expect(missing, `not copied into the runtime image, imported from ${entry}`).toEqual([]);
    }
  });

  it('lets only the proxy state client addresses, from the address it saw', () => {
    const trust = String(compose.services.api.environment.TRUST_PROXY).replace(
      /^\$\{TRUST_PROXY:-(.*)\}$/,
      '$1',
    );
    expect(loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x', TRUST_PROXY: trust }).trustProxy).not.toBe(false);
    const nginx = readFileSync('ops/nginx.conf', 'utf8');
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    expect(nginx).not.toContain('$proxy_add_x_forwarded_for');
  });
});
