// Prometheus metrics. Request figures are counted per process; log-wide figures (events appended,
// consumer lag, queue depth) are read from the database and Redis at scrape time, so every
// instance reports the same truth and nothing depends on which process took the write.
import { sql } from 'kysely';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import { consumerLag } from '../events/consumer.ts';
import { QUEUE_NAMES } from '../queue/jobs.ts';
import { liveStats } from '../live/index.ts';

export function createMetrics(app: FastifyInstance) {
  const { database, queue } = app.services;
  const registry = new Registry();
  registry.setDefaultLabels({ app: 'bodega-cats' });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['method', 'route'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  new Gauge({
    name: 'events_total',
    help: 'Events in the log (rate() of this is the append rate)',
    registers: [registry],
    async collect() {
      const { rows } = await sql<{ p: number | null }>`select max(global_position) as p from events`.execute(
        database.db,
      );
      this.set(Number(rows[0]?.p ?? 0));
    },
  });
  new Gauge({
    name: 'parked_events',
    help: 'Events a checkpointed consumer parked instead of halting on them (see npm run doctor)',
    registers: [registry],
    async collect() {
      const row = await database.db
        .selectFrom('parked_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      this.set(Number(row?.n ?? 0));
    },
  });
  const lagSeconds = new Gauge({
    name: 'consumer_lag_seconds',
    help: 'Age of the oldest event not yet handled by each checkpointed consumer',
    labelNames: ['subscription'],
    registers: [],
  });
  // Collected together (one query per consumer per scrape); the events gauge is serialized first.
  new Gauge({
    name: 'consumer_lag_events',
    help: 'Events not yet handled by each checkpointed consumer',
    labelNames: ['subscription'],
    registers: [registry],
    async collect() {
      const subs = await database.db.selectFrom('subscriptions').select('name').execute();
      for (const { name } of subs) {
        const lag = await consumerLag(database.db, name);
        this.set({ subscription: name }, lag.events);
        lagSeconds.set({ subscription: name }, lag.seconds);
      }
    },
  });
  registry.registerMetric(lagSeconds);
  const queueJobs = new Gauge({
    name: 'queue_jobs',
    help: 'Jobs per queue and state',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      try {
        const counts = await queue.counts();
        for (const q of QUEUE_NAMES) {
          for (const [state, n] of Object.entries(counts[q])) this.set({ queue: q, state }, n);
        }
      } catch {
        // Redis down: the readiness probe reports it; keep the last figures.
      }
    },
  });
  void queueJobs;
  new Gauge({
    name: 'websocket_clients',
    help: 'Open live-stream WebSocket connections on this process',
    registers: [registry],
    collect() {
      this.set(liveStats().sockets);
    },
  });
  new Gauge({
    name: 'live_broadcaster_lag_seconds',
    help: 'How far the live broadcaster of this process is behind the log',
    registers: [registry],
    collect() {
      this.set(liveStats().lagMs / 1000);
    },
  });
  new Gauge({
    name: 'live_clients_dropped',
    help: 'Live-stream clients dropped by this process since it started, by reason',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      const stats = liveStats();
      this.set({ reason: 'slow' }, stats.droppedSlow);
      this.set({ reason: 'dead' }, stats.droppedDead);
    },
  });
  const embedded = database.embedded;
  if (embedded) {
    new Counter({
      name: 'embedded_storage_restarts_total',
      help: 'Times the embedded storage thread was found stuck or dead and reopened from disk',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(embedded.restarts);
      },
    });
  }

  new Gauge({
    name: 'search_cache_requests',
    help: 'Search answers served by this process since it started, from its cache (hit) or computed (miss)',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      const stats = app.searchCache.stats();
      this.set({ result: 'hit' }, stats.hits);
      this.set({ result: 'miss' }, stats.misses);
    },
  });
  new Gauge({
    name: 'search_cache_entries',
    help: 'Search answers held in the cache of this process',
    registers: [registry],
    collect() {
      this.set(app.searchCache.stats().entries);
    },
  });
  new Gauge({
    name: 'search_cache_bytes',
    help: 'Estimated memory held by the search answers in the cache of this process',
    registers: [registry],
    collect() {
      this.set(app.searchCache.stats().bytes);
    },
  });

  new Gauge({
    name: 'db_replica_up',
    help: 'Whether each read replica answers as a standby (1) or not (0), at its last check by this process',
    labelNames: ['replica'],
    registers: [registry],
    collect() {
      for (const r of app.reads.replicas()) this.set({ replica: r.name }, r.up ? 1 : 0);
    },
  });
  new Gauge({
    name: 'db_replica_in_rotation',
    help: 'Whether this process sends public reads to each read replica (answering and within REPLICA_MAX_LAG_MS)',
    labelNames: ['replica'],
    registers: [registry],
    collect() {
      for (const r of app.reads.replicas()) this.set({ replica: r.name }, r.inRotation ? 1 : 0);
    },
  });
  new Gauge({
    name: 'db_replica_lag_seconds',
    help: 'How far each read replica was behind the primary at its last check (unset until one succeeds)',
    labelNames: ['replica'],
    registers: [registry],
    collect() {
      for (const r of app.reads.replicas())
        if (r.lagMs !== null) this.set({ replica: r.name }, r.lagMs / 1000);
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  return registry;
}
