// Reads on replicas as routes see them: a route names its kind of read in its options
// (`config: { reads: 'public' }`), and its handler asks `request.reader()` for the server to read
// on, chosen by db/read-pools.ts. Read-your-writes rides on one header both ways: a write's answer
// carries the log position it produced (X-Log-Position), and a read that sends it back is served
// by a server that has replayed it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Invalid } from '../errors.ts';
import {
  parseLogPosition,
  type LogPosition,
  type ReadKind,
  type ReadPools,
  type Reader,
} from '../db/read-pools.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The kind of read the route makes (see ReadKind); none: it reads on the primary. */
    reads?: ReadKind;
  }
  interface FastifyRequest {
    /** The server this request's reads run on (chosen once per request). */
    reader(): Promise<Reader>;
  }
  interface FastifyInstance {
    reads: ReadPools;
  }
}

export const LOG_POSITION_HEADER = 'X-Log-Position';

const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

const positions = new WeakMap<FastifyRequest, LogPosition>();
const readers = new WeakMap<FastifyRequest, Promise<Reader>>();

export function registerReads(app: FastifyInstance, pools: ReadPools): void {
  app.decorate('reads', pools);
  app.decorateRequest('reader', function (this: FastifyRequest) {
    let reader = readers.get(this);
    if (!reader) {
      reader = pools.reader({
        kind: this.routeOptions.config.reads,
        signedIn: this.currentUser !== null,
        after: positions.get(this) ?? null,
      });
      readers.set(this, reader);
    }
    return reader;
  });

  // A position that is not one is refused rather than ignored: a client that sends garbage would
  // otherwise silently lose read-your-writes.
  app.addHook('onRequest', async (request) => {
    const raw = request.headers[LOG_POSITION_HEADER.toLowerCase()];
    if (raw === undefined) return;
    const position = typeof raw === 'string' ? parseLogPosition(raw) : null;
    if (position === null)
      throw new Invalid(
        `${LOG_POSITION_HEADER} must be a log position as a write answered it, e.g. 0/3A1B2C8`,
        {
          [LOG_POSITION_HEADER]: 'not a log position',
        },
      );
    positions.set(request, position);
  });

  // After the handler, so after the write's commit: the primary's position now covers it.
  app.addHook('onSend', async (request, reply) => {
    if (!WRITE_METHODS.has(request.method) || reply.statusCode >= 400 || !request.url.startsWith('/api/'))
      return;
    try {
      const position = await pools.positionAfterWrite();
      if (position) reply.header(LOG_POSITION_HEADER, position);
    } catch (error) {
      // The write succeeded; without the header the writer's next reads may lag, nothing worse.
      request.log.warn({ err: error }, 'could not read the log position after a write');
    }
  });

  app.addHook('onClose', async () => pools.close());
}
