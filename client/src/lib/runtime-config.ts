// Deployment settings the server hands to the client (GET /api/config), fetched once per page.
import { api } from './api.ts';

export type RuntimeConfig = {
  product_name: string;
  google_maps_api_key: string | null;
  /** The street map's MapLibre style; null when the deployment turned it off. */
  map_style_url: string | null;
  nearby_radius_km: number;
};

let pending: Promise<RuntimeConfig> | null = null;

export function getRuntimeConfig(): Promise<RuntimeConfig> {
  pending ??= api.get<RuntimeConfig>('/api/config').catch((error: unknown) => {
    pending = null; // a later caller may try again
    throw error;
  });
  return pending;
}
