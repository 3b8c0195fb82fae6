// GET /api/stream: the live stream of public events (API.md, Live stream). Each api process runs
// one broadcaster for all its sockets, started with the app and stopped when it closes.
import type { FastifyPluginAsync } from 'fastify';
import websocket from '@fastify/websocket';
import { Type } from '@sinclair/typebox';
import { NotFound } from '../errors.ts';
import { parseCursor } from '../events/consumer.ts';
import { startBroadcaster } from './broadcaster.ts';
import { createHub } from './hub.ts';
import { trackLiveSource } from './stats.ts';
import { openStream } from './stream.ts';

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
  });
  const untrack = trackLiveSource({ hub: hub.stats, broadcaster: broadcaster.stats });

  const heartbeat = setInterval(() => {
    hub.heartbeat();
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
    wsHandler: (socket, request) => {
      const { after } = request.query as { after?: string };
      void openStream(socket, after ? parseCursor(after) : null, {
        database,
        hub,
        broadcaster,
        replayLimit: settings.replayLimit,
        logger: log,
      });
    },
  });
};

export default liveRoutes;
