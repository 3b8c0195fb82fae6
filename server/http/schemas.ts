// Route-schema helpers every route module shares: the standard error responses, page queries and
// ids from path segments. The wire shapes themselves are declared once, in contract/.
import { Type } from '@sinclair/typebox';
import { ErrorBody, MAX_ID } from '../../contract/common.ts';
import type { TargetType } from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { targetNotFound, type Target } from '../events/targets.ts';

/** Standard error responses a route can produce, to spread into `schema.response`. */
export function errors(...codes: (400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503)[]) {
  return Object.fromEntries(codes.map((c) => [c, ErrorBody]));
}

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
};

export function pagination(total: number, page: number, perPage: number) {
  return { page, per_page: perPage, total, pages: Math.ceil(total / perPage) };
}

/**
 * An id from a path segment, or null when the text cannot be one. A path that names no possible
 * id names nothing, so callers answer it like any unknown id (404), never a 400 or 500.
 */
export function pathId(raw: string): number | null {
  if (!/^[0-9]{1,16}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= MAX_ID ? id : null;
}

/** The id a path segment names, or a 404 with the `missing` message ('Cat not found') when none. */
export function pathIdOr404(raw: string, missing: string): number {
  const id = pathId(raw);
  if (id === null) throw new NotFound(missing);
  return id;
}

/** The cat or bodega a path segment names, or the 404 a missing one answers ('Cat not found'). */
export function pathTarget(type: TargetType, raw: string): Target {
  const id = pathId(raw);
  if (id === null) throw targetNotFound({ type });
  return { type, id };
}

/** Postgres text and jsonb reject NUL; an unpaired surrogate is not valid UTF-8. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const NOT_STORABLE = /\u0000|\p{Cs}/u;

/** Whether the database can hold the text as it is. */
export function isStorable(text: string): boolean {
  return !NOT_STORABLE.test(text);
}
