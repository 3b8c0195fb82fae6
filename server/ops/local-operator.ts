// Operator commands against a running embedded app. The app holds the data directory's lock (see
// db/data-lock.ts), so `npm run replay`, `migrate`, `seed` and `doctor` cannot open it themselves;
// they ask the app instead. At start the app writes its local address and a random token to
// `<dataDir>/.operator.json` (mode 0600: whoever may read the data directory may run these
// commands, nobody else), and serves POST /ops/* for that token only. Embedded mode only: with
// Postgres the scripts open the database themselves and these routes do not exist.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Conflict, Invalid, NotFound, Unauthorized } from '../errors.ts';
import { migrateAndSeal } from '../events/migrate.ts';
import { projections } from '../domains.ts';
import { personalData } from '../personal-data.ts';
import { replay } from '../events/replay.ts';
import { seedDemoData } from '../catalogue/index.ts';
import { setRole } from '../moderation/index.ts';
import { deleteAccountByUsername, exportAccountByUsername } from '../accounts/index.ts';
import { databaseChecks } from './doctor-checks.ts';
import { sameSecret } from './routes.ts';

export const CHANNEL_FILE = '.operator.json';

export type OperatorChannel = { pid: number; url: string; token: string };

export function newOperatorToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The address a local client reaches a server listening on `address` at. */
export function localUrl(address: AddressInfo): string {
  const host =
    address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/** Writes the channel file (owner-only, replaced atomically); returns a function removing it. */
export function publishOperatorChannel(dataDir: string, channel: OperatorChannel): () => void {
  const file = path.join(dataDir, CHANNEL_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  fs.rmSync(temp, { force: true });
  const fd = fs.openSync(temp, 'wx', 0o600);
  try {
    fs.fchmodSync(fd, 0o600); // whatever the umask
    fs.writeSync(fd, JSON.stringify(channel));
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
  const remove = () => {
    if (readOperatorChannel(dataDir)?.token === channel.token) fs.rmSync(file, { force: true });
  };
  process.once('exit', remove);
  return remove;
}

export function readOperatorChannel(dataDir: string): OperatorChannel | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(dataDir, CHANNEL_FILE), 'utf8'));
    if (Number.isInteger(parsed.pid) && typeof parsed.url === 'string' && typeof parsed.token === 'string')
      return { pid: parsed.pid, url: parsed.url, token: parsed.token };
    return null;
  } catch {
    return null;
  }
}

function isLocal(request: FastifyRequest): boolean {
  const { remoteAddress, localAddress } = request.socket;
  if (!remoteAddress) return false;
  return remoteAddress === localAddress || remoteAddress === '::1' || /^(::ffff:)?127\./.test(remoteAddress);
}

/**
 * Registers POST /ops/doctor, /ops/migrate, /ops/seed, /ops/role, /ops/account-delete,
 * /ops/account-export and /ops/replay, bound to `token`.
 */
export async function registerLocalOperatorRoutes(app: FastifyInstance, token: string): Promise<void> {
  const { services } = app;
  let replaying = false;

  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => {
      // Only for this machine (the scripts run next to the data directory), and only with the token.
      if (!isLocal(request)) throw new NotFound(`Route ${request.method}:${request.url} not found`);
      const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (!given || !sameSecret(given, token)) throw new Unauthorized('Operator token required');
    });

    scope.post('/ops/doctor', { schema: { hide: true } }, async () => {
      await services.database.ping();
      return { checks: await databaseChecks(services.database) };
    });

    scope.post('/ops/migrate', { schema: { hide: true } }, async () => ({
      applied: await migrateAndSeal(services.database.db),
    }));

    scope.post('/ops/seed', { schema: { hide: true } }, async () => seedDemoData(services));

    scope.post<{ Body: { username?: unknown; role?: unknown } }>(
      '/ops/role',
      { schema: { hide: true } },
      async (request) => {
        const { username, role } = request.body ?? {};
        if (typeof username !== 'string' || username === '') throw new Invalid('username is required');
        if (role !== 'moderator' && role !== 'member') throw new Invalid('role must be moderator or member');
        return setRole(services, username, role);
      },
    );

    scope.post<{ Body: { username?: unknown } }>(
      '/ops/account-delete',
      { schema: { hide: true } },
      async (request) => {
        const { username } = request.body ?? {};
        if (typeof username !== 'string' || username === '') throw new Invalid('username is required');
        return deleteAccountByUsername(services, username, personalData);
      },
    );

    scope.post<{ Body: { username?: unknown } }>(
      '/ops/account-export',
      { schema: { hide: true } },
      async (request, reply) => {
        const { username } = request.body ?? {};
        if (typeof username !== 'string' || username === '') throw new Invalid('username is required');
        const document = await exportAccountByUsername(services, username, personalData);
        // A person's data: nothing on the way may keep a copy.
        reply.header('cache-control', 'no-store');
        return document;
      },
    );

    // Streams newline-delimited JSON: progress lines while it runs, then the result (or an error),
    // so a long replay shows its progress and never sits silent long enough to time out.
    scope.post<{ Body: { verify?: unknown; force?: unknown; projections?: unknown } }>(
      '/ops/replay',
      { schema: { hide: true } },
      async (request, reply) => {
        const body = request.body ?? {};
        const names = body.projections ?? [];
        if (!Array.isArray(names) || names.some((n) => typeof n !== 'string'))
          throw new Invalid('projections must be a list of projection names');
        if (body.verify !== undefined && typeof body.verify !== 'boolean')
          throw new Invalid('verify must be true or false');
        if (body.force !== undefined && typeof body.force !== 'boolean')
          throw new Invalid('force must be true or false');
        const unknown = names.filter((n) => !projections.some((p) => p.name === n));
        if (unknown.length > 0)
          throw new Invalid(
            `Unknown projection: ${unknown.join(', ')}. Known: ${projections.map((p) => p.name).join(', ')}`,
          );
        if (replaying) throw new Conflict('A replay is already running in this app', 'replay_running');
        const selected = names.length ? projections.filter((p) => names.includes(p.name)) : projections;

        replaying = true;
        const out = new PassThrough();
        const line = (value: object) => out.write(`${JSON.stringify(value)}\n`);
        const beat = setInterval(() => line({ type: 'heartbeat' }), 10_000);
        replay(services.database, selected, {
          verify: body.verify === true,
          force: body.force === true,
          onProgress: (p) => line({ type: 'progress', ...p }),
        })
          .then((result) => line({ type: 'result', result }))
          .catch((error: Error) => {
            request.log.error({ err: error }, 'replay failed');
            line({ type: 'error', message: error.message });
          })
          .finally(() => {
            replaying = false;
            clearInterval(beat);
            out.end();
          });
        reply.header('content-type', 'application/x-ndjson').header('cache-control', 'no-store');
        return reply.send(out);
      },
    );
  });
}
