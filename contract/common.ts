// Shapes every part of the API shares: ids, targets, pagination and the error body (API.md).
import { Type, type Static, type TSchema } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/**
 * Ids are whole numbers in 1..2^53-1 (API.md): the range every client can hold exactly in a
 * double and Postgres holds in a bigint. Bodies and queries declare them with `Id`, so anything
 * outside is a 400 before a query is built.
 */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });

export const TargetType = Type.Union([Type.Literal('cat'), Type.Literal('bodega')]);
export type TargetType = Static<typeof TargetType>;

export const ErrorBody = Type.Object(
  { error: Type.String(), code: Type.String(), details: Type.Optional(Type.Unknown()) },
  { $id: 'Error' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** What a deletion or a clearing answers: a sentence saying it was done ('Review deleted'). */
export const Message = Type.Object({ message: Type.String() });
export type Message = Static<typeof Message>;

export const Pagination = Type.Object({
  page: Type.Integer(),
  per_page: Type.Integer(),
  total: Type.Integer(),
  pages: Type.Integer(),
});
export type Pagination = Static<typeof Pagination>;

/** Search pages also say whether `total` was counted or, past the counting bound, estimated. */
export const SearchPagination = Type.Composite([Pagination, Type.Object({ total_exact: Type.Boolean() })]);
export type SearchPagination = Static<typeof SearchPagination>;
