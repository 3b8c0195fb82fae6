// The street map's clusters for the visible box: asked for a moment after the map stops moving,
// the request before aborted and any answer to an older view dropped, and kept current by the live
// stream (a cat added in the box joins its cluster, a deleted one leaves it) without asking again
// when the view has no text or filters; hidden or restored content makes it ask again.
import { useEffect, useRef, useState } from 'react';
import { useLiveEvents } from '../../live/index.ts';
import { getMapClusters } from '../api/get-map.ts';
import { clampBox } from '../model/area.ts';
import {
  addToClusters,
  clusterQuery,
  inBox,
  removeFromClusters,
  type Box,
  type ClusterView,
} from '../model/map-clusters.ts';
import { bodegaFilterChips, catFilterChips } from '../model/filters.ts';
import type { SearchState } from '../model/search-state.ts';

const MOVE_DEBOUNCE_MS = 250;

export type Camera = { box: Box; zoom: number };
/** Where a live change landed, for the marker's short animation. */
export type LiveChange = { lat: number; lng: number; at: number };

export function useMapClusters(state: SearchState, camera: Camera | null) {
  const [shown, setView] = useState<(ClusterView & { tab: SearchState['tab'] }) | null>(null);
  // Another tab's clusters are not shown while its own are on their way.
  const view = shown?.tab === state.tab ? shown : null;
  const [failed, setFailed] = useState(false);
  const [lastChange, setLastChange] = useState<LiveChange | null>(null);
  /** Bumped to ask for the same view again. */
  const [asked, askAgain] = useState(0);
  const latest = useRef(0);
  const query = camera ? clusterQuery(state, camera.box, camera.zoom) : null;
  const key = query ? new URLSearchParams(query).toString() : null;

  useEffect(() => {
    if (!camera || !query) return;
    const box = clampBox(camera.box);
    if (!box) return;
    const request = ++latest.current;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      getMapClusters(clusterQuery(state, box, camera.zoom), abort.signal).then(
        (answer) => {
          if (request !== latest.current) return; // a newer view was asked for meanwhile
          setFailed(false);
          setView({ box, answer, tab: state.tab });
        },
        () => {
          if (request === latest.current && !abort.signal.aborted) setFailed(true);
        },
      );
    }, MOVE_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the query string is the identity
  }, [key, asked]);

  // Only an unfiltered view can take a live item as it is: whether it matches a text or a filter
  // is the server's to say, so such a view asks again instead.
  const unfiltered =
    state.q.trim() === '' &&
    (state.tab === 'cats' ? catFilterChips(state.cat) : bodegaFilterChips(state.bodega)).length === 0;
  useLiveEvents((message) => {
    // A moderator hid or restored a cat or a bodega (with its cats): where it was is not in the
    // message, so the view is asked for again. Moderation is rare.
    if (message.type === 'content.hidden' || message.type === 'content.restored') {
      const { target_type } = message.data;
      if (view && (target_type === 'cat' || target_type === 'bodega')) askAgain((n) => n + 1);
      return;
    }
    const kind = state.tab === 'cats' ? 'cat' : 'bodega';
    if (message.type !== `${kind}.added` && message.type !== `${kind}.deleted`) return;
    if (!('data' in message)) return;
    const data = message.data as {
      id: number;
      name?: string;
      latitude: number | null;
      longitude: number | null;
    };
    if (data.latitude === null || data.longitude === null) return;
    const point = { id: data.id, lat: data.latitude, lng: data.longitude };
    if (!view || !inBox(view.box, point.lat, point.lng)) return;
    if (!unfiltered) return askAgain((n) => n + 1);
    setView((current) => {
      if (!current) return current;
      const next = message.type.endsWith('.added')
        ? addToClusters(current, { ...point, name: data.name ?? '' })
        : removeFromClusters(current, point);
      return { ...next, tab: current.tab };
    });
    setLastChange({ lat: point.lat, lng: point.lng, at: Date.now() });
  });

  return { view, failed, lastChange };
}
