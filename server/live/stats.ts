// Process-wide figures of the live stream (socket count, lag), for logs and metrics.
import type { BroadcasterStats } from './broadcaster.ts';
import type { HubStats } from './hub.ts';

export type LiveSource = { hub: () => HubStats; broadcaster: () => BroadcasterStats };

export type LiveStats = HubStats & {
  /** The largest broadcaster lag of this process's apps (one per api process in production). */
  lagMs: number;
  broadcasters: BroadcasterStats[];
};

const sources = new Set<LiveSource>();

export function trackLiveSource(source: LiveSource): () => void {
  sources.add(source);
  return () => void sources.delete(source);
}

export function liveStats(): LiveStats {
  const total: LiveStats = {
    sockets: 0,
    catchingUp: 0,
    delivered: 0,
    droppedSlow: 0,
    droppedDead: 0,
    lagMs: 0,
    broadcasters: [],
  };
  for (const source of sources) {
    const hub = source.hub();
    const broadcaster = source.broadcaster();
    total.sockets += hub.sockets;
    total.catchingUp += hub.catchingUp;
    total.delivered += hub.delivered;
    total.droppedSlow += hub.droppedSlow;
    total.droppedDead += hub.droppedDead;
    total.lagMs = Math.max(total.lagMs, broadcaster.lagMs);
    total.broadcasters.push(broadcaster);
  }
  return total;
}
