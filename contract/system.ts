// The deployment's settings the client reads once per page (GET /api/config).
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './common.ts';

export const RuntimeConfig = Type.Object({
  product_name: Type.String(),
  google_maps_api_key: Nullable(Type.String()),
  /** The street map's MapLibre style; null when the deployment turned it off. */
  map_style_url: Nullable(Type.String()),
  nearby_radius_km: Type.Number(),
});
export type RuntimeConfig = Static<typeof RuntimeConfig>;
