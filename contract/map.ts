// The map at city scale (API.md "Map at city scale"): clusters of the matching items in a box.
import { Type, type Static } from '@sinclair/typebox';

/** A group of items: the mean of their coordinates, and the item itself when it is alone. */
export const Cluster = Type.Object({
  lat: Type.Number(),
  lng: Type.Number(),
  count: Type.Integer({ minimum: 1 }),
  id: Type.Optional(Type.Integer()),
  name: Type.Optional(Type.String()),
});
export type Cluster = Static<typeof Cluster>;

/** `total` is exact and equals the sum of the clusters' counts. */
export const MapAnswer = Type.Object({
  zoom: Type.Integer(),
  total: Type.Integer(),
  clusters: Type.Array(Cluster, { maxItems: 500 }),
});
export type MapAnswer = Static<typeof MapAnswer>;

/** GET /api/geocode/reverse: the street address at a position (a form's Location button). */
export const ReverseGeocodeAnswer = Type.Object({ address: Type.String() });
export type ReverseGeocodeAnswer = Static<typeof ReverseGeocodeAnswer>;
