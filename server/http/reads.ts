// Reads on replicas as routes see them: a route names its kind of read in its options
// (`config: { reads: 'public' }`), and its handler asks `request.reader()` for the server to read
// on, chosen by db/read-pools.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReadKind, ReadPools, Reader } from '../db/read-pools.ts';

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

const readers = new WeakMap<FastifyRequest, Promise<Reader>>();

export function registerReads(app: FastifyInstance, pools: ReadPools): void {
  app.decorate('reads', pools);
  app.decorateRequest('reader', function (this: FastifyRequest) {
    let reader = readers.get(this);
    if (!reader) {
      reader = pools.reader({
        kind: this.routeOptions.config.reads,
        signedIn: this.currentUser !== null,
        after: null,
      });
      readers.set(this, reader);
    }
    return reader;
  });

  app.addHook('onClose', async () => pools.close());
}
