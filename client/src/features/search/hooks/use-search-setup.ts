// When the search screen may start, and how far 'nearby' reaches.
import { useEffect, useState } from 'react';
import { env } from '../../../config/env.ts';
import { getRuntimeConfig } from '../../../lib/runtime-config.ts';
import { useSession } from '../../auth/index.ts';
import { NEARBY_RADIUS_KM } from '../model/search-request.ts';

/** The initial search and filter options wait this long after the session check. */
export const INITIAL_LOAD_DELAY_MS = 2000;

/** True once the initial delay after the session check has passed. */
export function useInitialDelayPassed(): boolean {
  const readyAt = useSession((s) => s.readyAt);
  const [passed, setPassed] = useState(false);
  useEffect(() => {
    if (!env.apiConfigured || readyAt === null) return;
    const wait = Math.max(0, readyAt + INITIAL_LOAD_DELAY_MS - Date.now());
    const timer = setTimeout(() => setPassed(true), wait);
    return () => clearTimeout(timer);
  }, [readyAt]);
  return passed;
}

/** The server's nearby radius (its runtime config), or the default until it answers. */
export function useNearbyRadius(): number {
  const [radius, setRadius] = useState(NEARBY_RADIUS_KM);
  useEffect(() => {
    if (!env.apiConfigured) return;
    getRuntimeConfig()
      .then((config) => setRadius(config.nearby_radius_km || NEARBY_RADIUS_KM))
      .catch(() => {});
  }, []);
  return radius;
}
