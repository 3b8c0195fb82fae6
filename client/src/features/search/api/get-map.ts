import { api } from '../../../lib/api.ts';
import type { MapAnswer } from '../model/map-clusters.ts';

/** Clusters of the matching cats or bodegas in a box (GET /api/map). */
export function getMapClusters(query: Record<string, string>, signal?: AbortSignal): Promise<MapAnswer> {
  return api.get<MapAnswer>('/api/map', { query, signal });
}
