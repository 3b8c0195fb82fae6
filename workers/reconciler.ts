// The worker's reconciler: the queue's (server/queue/reconciler.ts) over every domain's rules for
// its unfinished work (jobs.ts).
import type { Services } from '../server/services.ts';
import { createReconciler as reconcilerOf, type Reconciler } from '../server/queue/reconciler.ts';
import { reconcileRules, type ReconcileOptions } from './jobs.ts';

export function createReconciler(
  services: Pick<Services, 'database' | 'queue'>,
  options: ReconcileOptions = {},
): Reconciler {
  return reconcilerOf(services, reconcileRules(options));
}
