// How errors from the database and Redis read: a dependency that is down (the HTTP layer answers
// 503), and, more broadly, trouble around a piece of work rather than a fault in it. Job runners and
// log consumers retry such trouble with capped backoff for as long as it lasts, without using up
// an attempt; anything else counts.

const DB_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);

/** The database or Redis cannot be reached (or is restarting): a 503, not a fault. */
export function isDependencyDown(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: string; message?: string; cause?: unknown };
  if (e.code && DB_DOWN_CODES.has(e.code)) return true;
  if (
    typeof e.message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED/i.test(
      e.message,
    )
  )
    return true;
  if (e.cause) return isDependencyDown(e.cause);
  if ('errors' in e && Array.isArray((e as { errors: unknown[] }).errors))
    return (e as { errors: unknown[] }).errors.some(isDependencyDown);
  return false;
}

/** SQLSTATEs that say "try again": serialization, deadlock, lock timeout, too many connections. */
const RETRY_CODES = new Set(['40001', '40P01', '55P03', '53300', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

const TRANSIENT_MESSAGES =
  /Connection is closed|Command timed out|Redis is not reachable|Stream isn't writeable|Reached the max retries per request limit|the database system is (starting up|shutting down)|terminating connection due to administrator command/i;

export function isTransientError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  if (isDependencyDown(error)) return true;
  const e = error as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && (RETRY_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  if (e.name === 'MaxRetriesPerRequestError') return true;
  // An error the app already reads as a dependency that is down (photo storage, for one).
  if ((e as { statusCode?: unknown }).statusCode === 503) return true;
  if (typeof e.message === 'string' && TRANSIENT_MESSAGES.test(e.message)) return true;
  return e.cause ? isTransientError(e.cause, depth + 1) : false;
}
