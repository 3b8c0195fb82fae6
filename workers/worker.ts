// The worker role: the job dispatcher plus the queue processors. Embedded mode runs it in the api
// process; production runs it as separate `npm run worker` processes.
import os from 'node:os';
import type { Services } from '../server/services.ts';
import { createProcessors, dispatchRules, reconcileSweeps } from './jobs.ts';
import type { ConsumerLoop } from '../server/events/consumer.ts';
import { startDispatcher } from '../server/queue/dispatcher.ts';
import { createReconciler } from './reconciler.ts';

/** How often the reconciler looks for unfinished work. */
const RECONCILE_EVERY_MS = 5 * 60_000;

export type RunningWorker = { dispatcher: ConsumerLoop; stop(): Promise<void> };

export async function startWorker(
  services: Services,
  options: { pollMs?: number; reconcileMs?: number } = {},
): Promise<RunningWorker> {
  const { queue, database, logger } = services;
  // sharp is CPU-bound: keep photo concurrency below the core count so the api stays responsive.
  const photoConcurrency = Math.max(1, Math.min(2, os.availableParallelism() - 1));
  await queue.process(createProcessors(services), { photos: photoConcurrency, ratings: 4 });
  const dispatcher = await startDispatcher(database, queue, dispatchRules, {
    pollMs: options.pollMs,
    onError: (error) => logger.warn({ err: error }, 'job dispatch failed; will retry from the log'),
  });
  const reconciler = createReconciler(services, {}, reconcileSweeps(services));
  const reconcile = setInterval(() => {
    reconciler
      .run()
      .then((found) => {
        if (Object.values(found).some((n) => n > 0))
          logger.warn(found, 'reconciler re-drove unfinished work');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'reconciler pass failed; will try again'));
  }, options.reconcileMs ?? RECONCILE_EVERY_MS);
  reconcile.unref();
  return {
    dispatcher,
    async stop() {
      clearInterval(reconcile);
      await dispatcher.stop();
    },
  };
}
