// The worker's reconciler: the queue's (server/queue/reconciler.ts) over every domain's rules for
// its unfinished work (jobs.ts), and the sweeps given (reconcileSweeps, for the worker).
import type { Services } from '../server/services.ts';
import {
  createReconciler as reconcilerOf,
  type Reconciler,
  type ReconcileSweep,
} from '../server/queue/reconciler.ts';
import { reconcileRules, type ReconcileOptions } from './jobs.ts';

export function createReconciler(
  services: Pick<Services, 'database' | 'queue'>,
  options: ReconcileOptions = {},
  sweeps: readonly ReconcileSweep[] = [],
): Reconciler {
  return reconcilerOf(services, reconcileRules(options), sweeps);
}
