// Deployment settings the server hands to the client (GET /api/config), fetched once per page.
import type { RuntimeConfig } from '../../../contract/system.ts';
import { api } from './api.ts';

export type { RuntimeConfig };

let pending: Promise<RuntimeConfig> | null = null;

export function getRuntimeConfig(): Promise<RuntimeConfig> {
  pending ??= api.get<RuntimeConfig>('/api/config').catch((error: unknown) => {
    pending = null; // a later caller may try again
    throw error;
  });
  return pending;
}
