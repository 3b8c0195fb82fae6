import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SERVER_ENTRIES } from '../../../scripts/build-server.ts';
import { loadConfig } from '../../../server/config.ts';

// No Docker engine runs where the tests run, so these check what a build could get wrong without
// one: that the runtime image holds every entry point its processes run (the compiled bundles,
// which import no project source: see production-build.test.ts), and that the proxy and the api
// agree on who may state a client's address.

/** What the runtime stage copies: each source, whether it comes from the build stage, and where to. */
function runtimeCopies(dockerfile: string): { fromBuild: boolean; source: string; target: string }[] {
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  return [...runtime.matchAll(/^COPY ((?:--\S+ )*)(.+) (\S+)$/gm)].flatMap((m) =>
    m[2]!
      .split(/\s+/)
      .map((source) => ({ fromBuild: m[1]!.includes('--from=build'), source, target: m[3]! })),
  );
}

describe('deployment', () => {
  const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true });
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  const copies = runtimeCopies(dockerfile);

  it('runs compiled bundles on plain Node, every one of them built into the image', () => {
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    const commands = Object.values(compose.services as Record<string, { command?: string[] }>)
      .map((service) => service.command ?? [])
      .filter((command) => command[0] === 'node');
    expect(commands.map((c) => c.slice(1))).toEqual(
      expect.arrayContaining([['dist/migrate.js'], ['dist/main.js', 'api'], ['dist/main.js', 'worker']]),
    );
    for (const command of [cmd, ...commands]) {
      expect(command, 'no TypeScript loader').not.toContain('tsx');
      const entry = /^dist\/(.+)\.js$/.exec(command[1]!)?.[1];
      expect(
        entry && SERVER_ENTRIES[entry],
        `${command.join(' ')} runs a bundle the build makes`,
      ).toBeTruthy();
    }
    // dist/ comes from the build stage, which ran `npm run build`; package.json says
    // "type": "module", which the bundles need to load as ES modules.
    expect(copies).toContainEqual({ fromBuild: true, source: '/app/dist', target: './dist' });
    expect(copies).toContainEqual({ fromBuild: false, source: 'package.json', target: './' });
    expect(copies.filter((c) => !c.fromBuild).map((c) => c.source)).toEqual(['package.json']);
  });

  it('shares no directory between the app containers: photos go to the private bucket MinIO holds', () => {
    const services = compose.services as Record<
      string,
      { volumes?: string[]; environment?: Record<string, string>; entrypoint?: string[] }
    >;
    for (const name of ['migrate', 'api', 'worker']) {
      expect(services[name]!.volumes ?? [], `${name} mounts nothing`).toEqual([]);
      expect(services[name]!.environment!.PHOTO_STORAGE).toBe('s3');
    }
    const env = services.api!.environment!;
    expect(env.S3_ENDPOINT).toBe('http://minio:9000');
    const setup = services['minio-setup']!.entrypoint!.join(' ');
    expect(setup).toContain(`mc mb --ignore-existing local/${env.S3_BUCKET}`);
    expect(setup).toContain(`mc anonymous set none local/${env.S3_BUCKET}`);
    expect(Object.keys(compose.volumes)).not.toContain('uploads');
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
