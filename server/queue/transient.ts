// Which job failures are trouble around the job rather than a fault in it: a database or Redis that
// is restarting, unreachable or too busy. Such a failure retries with capped backoff for as long as
// the trouble lasts and never uses up one of the job's attempts; anything else counts.
import { isDependencyDown } from '../http/error-handler.ts';

/** SQLSTATEs that say "try again": serialization, deadlock, lock timeout, too many connections. */
const RETRY_CODES = new Set(['40001', '40P01', '55P03', '53300', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

const TRANSIENT_MESSAGES =
  /Connection is closed|Command timed out|Redis is not reachable|Stream isn't writeable|Reached the max retries per request limit|Connection terminated|the database system is (starting up|shutting down)|terminating connection due to administrator command/i;

export function isTransientError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  if (isDependencyDown(error)) return true;
  const e = error as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && (RETRY_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  if (e.name === 'MaxRetriesPerRequestError') return true;
  if (typeof e.message === 'string' && TRANSIENT_MESSAGES.test(e.message)) return true;
  return e.cause ? isTransientError(e.cause, depth + 1) : false;
}
