// GET /api/stream: the live stream of public events (API.md, Live stream). Each api process runs
// one broadcaster for all its sockets, started with the app and stopped when it closes.
import type { FastifyPluginAsync } from 'fastify';
import websocket from '@fastify/websocket';
import { Type } from '@sinclair/typebox';
import { Invalid, NotFound, RateLimited } from '../errors.ts';
import { parseCursor } from '../events/consumer.ts';
import { startBroadcaster } from './broadcaster.ts';
import { createHub } from './hub.ts';
import { createResumeLimit } from './resume-limit.ts';
import { trackLiveSource } from './stats.ts';
import { openStream } from './stream.ts';

// The shape only; parseCursor (preHandler below) checks each part is within the log's range.
const StreamQuery = Type.Object({
  after: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,20}-[0-9]{1,20}$', description: 'The cursor of the last event seen' }),
  ),
});

const liveRoutes: FastifyPluginAsync = async (app) => {
  const settings = app.services.config.live;
  const { database, logger } = app.services;
  const log = logger.child({ component: 'live' });
  const hub = createHub({ maxBufferedBytes: settings.maxBufferedBytes, logger: log });
  const broadcaster = await startBroadcaster({
    database,
    hub,
    logger: log,
    batchSize: settings.batchSize,
    pollMs: settings.pollMs,
    replayLimit: settings.replayLimit,
  });
  const untrack = trackLiveSource({ hub: hub.stats, broadcaster: broadcaster.stats });

  // Resumes per client address: each may replay up to the replay limit of frames.
  const resumes = createResumeLimit({ burst: settings.resumeBurst, perMinute: settings.resumesPerMinute });

  const heartbeat = setInterval(() => {
    hub.heartbeat();
    resumes.prune();
    log.info({ ...hub.stats(), ...broadcaster.stats() }, 'live stream');
  }, settings.heartbeatMs);
  heartbeat.unref();

  // Before the websocket plugin's own preClose: clients hear "going away" (1001) and resume elsewhere.
  app.addHook('preClose', async () => hub.closeAll());
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    untrack();
    await broadcaster.stop();
  });

  // Open sockets per client address (request.ip, so TRUST_PROXY decides who the client is): one
  // address cannot hold the process's memory and file descriptors with thousands of sockets.
  const perAddress = new Map<string, number>();
  const limit = settings.maxConnectionsPerAddress;
  const tooMany = () =>
    new RateLimited(`Too many live connections from this address (at most ${limit}); close one first`, 5);

  // Clients never need to send anything; a tiny limit keeps a misbehaving one cheap.
  await app.register(websocket, { options: { maxPayload: 1024 } });

  app.route({
    method: 'GET',
    url: '/stream',
    schema: { hide: true, querystring: StreamQuery },
    // A plain GET (no "Upgrade: websocket") names nothing here: a 404 in the error contract's shape.
    handler: async () => {
      throw new NotFound('The live stream is a WebSocket: connect with "Upgrade: websocket"');
    },
    // Refused before the upgrade: a plain 429 in the error contract's shape.
    preValidation: async (request) => {
      if (request.ws && (perAddress.get(request.ip) ?? 0) >= limit) throw tooMany();
    },
    // After the query's schema, still before the upgrade: a cursor out of the log's range is a 400
    // (it would fail in SQL), and a resume over the address's budget a 429.
    preHandler: async (request) => {
      const { after } = request.query as { after?: string };
      if (after === undefined) return;
      if (!parseCursor(after)) {
        throw new Invalid('after is not a cursor of this stream', {
          after: 'must be a cursor the stream sent: transaction-position, each within the range of the log',
        });
      }
      const wait = request.ws ? resumes.take(request.ip) : 0;
      if (wait > 0) {
        throw new RateLimited(
          `Too many resumes of the live stream from this address; try again in ${wait} s`,
          wait,
        );
      }
    },
    wsHandler: (socket, request) => {
      // Upgrades that passed the check together may still overshoot: the count decides here.
      const address = request.ip;
      const open = perAddress.get(address) ?? 0;
      if (open >= limit) {
        socket.close(1008, 'too many connections from this address');
        return;
      }
      perAddress.set(address, open + 1);
      socket.once('close', () => {
        const left = (perAddress.get(address) ?? 1) - 1;
        if (left > 0) perAddress.set(address, left);
        else perAddress.delete(address);
      });
      const { after } = request.query as { after?: string };
      void openStream(socket, after ? parseCursor(after) : null, { database, hub, broadcaster, logger: log });
    },
  });
};

export default liveRoutes;
