import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MapLocation } from '../../../../client/src/features/search/components/map/types.ts';
import { useClusterMap } from '../../../../client/src/features/search/components/map/use-cluster-map.ts';
import type { Camera } from '../../../../client/src/features/search/hooks/use-map-clusters.ts';
import { MAX_CLUSTER_ZOOM } from '../../../../client/src/features/search/model/cluster-markers.ts';
import type { Box } from '../../../../client/src/features/search/model/map-clusters.ts';
import { DEFAULT_SEARCH_STATE } from '../../../../client/src/features/search/model/search-state.ts';
import { WHISKERS } from '../../fixtures.ts';
import { scriptedFetch } from '../../helpers.ts';

class QuietSocket {
  onopen = null;
  onmessage = null;
  onclose = null;
  onerror = null;
  close() {}
}

const camera: Camera = { box: { west: -74.1, south: 40.6, east: -73.9, north: 40.8 }, zoom: 12 };
const pair = { lat: 40.65, lng: -74.05, count: 2 };
const whiskers = {
  lat: WHISKERS.latitude,
  lng: WHISKERS.longitude,
  count: 1,
  id: WHISKERS.id,
  name: 'Whiskers',
};

function setup(options: { zoom?: number; locations?: MapLocation[]; canSearchArea?: boolean } = {}) {
  const { sent } = scriptedFetch((request) =>
    request.url.startsWith('/api/map?')
      ? { status: 200, body: { zoom: 12, total: 3, clusters: [pair, whiskers] } }
      : { status: 200, body: { cats: [WHISKERS], page: 1, per_page: 50, total: 1 } },
  );
  const moves = { zoom: vi.fn(() => options.zoom ?? 12), zoomTo: vi.fn() };
  const onHighlight = vi.fn();
  const onSearchArea = vi.fn<(box: Box) => void>();
  const hook = renderHook(() =>
    useClusterMap({
      state: DEFAULT_SEARCH_STATE,
      camera,
      locations: options.locations ?? [],
      onHighlight,
      onSearchArea: options.canSearchArea === false ? undefined : onSearchArea,
      moves,
    }),
  );
  return { ...hook, sent, moves, onHighlight, onSearchArea };
}

const settle = () => act(() => vi.advanceTimersByTimeAsync(300));

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
  vi.stubGlobal('WebSocket', QuietSocket);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("a cluster map's shared behaviour", () => {
  it('zooms into a group two levels, and the moved map offers its area until it is searched', async () => {
    const { result, moves, onSearchArea } = setup();
    await settle();
    expect(result.current.view?.answer.clusters).toHaveLength(2);
    expect(result.current.offerArea).toBe(false);
    act(() => result.current.select(pair));
    expect(moves.zoomTo).toHaveBeenCalledWith({ lat: pair.lat, lng: pair.lng }, 14);
    expect(result.current.offerArea).toBe(true);
    act(() => result.current.searchArea());
    expect(onSearchArea).toHaveBeenCalledWith(camera.box);
    expect(result.current.offerArea).toBe(false);
  });

  it('lists a group that stays one spot all the way in, and offers no area without a list to limit', async () => {
    const deep = setup({ zoom: MAX_CLUSTER_ZOOM });
    await settle();
    act(() => deep.result.current.select(pair));
    expect(deep.moves.zoomTo).not.toHaveBeenCalled();
    const box = deep.onSearchArea.mock.calls[0]![0];
    expect(box.west).toBeLessThan(pair.lng);
    expect(box.north).toBeGreaterThan(pair.lat);
    cleanup();

    const alone = setup({ canSearchArea: false });
    await settle();
    act(() => alone.result.current.select(pair));
    expect(alone.moves.zoomTo).toHaveBeenCalled();
    expect(alone.result.current.offerArea).toBe(false);
  });

  it("opens a single item's card, reading it around its point when the results do not hold it", async () => {
    const { result, sent } = setup();
    await settle();
    act(() => result.current.select(whiskers));
    expect(result.current.open).toEqual({ cluster: whiskers, location: null });
    await settle();
    expect(sent.at(-1)!.url).toMatch(/^\/api\/search\/nearby\?lat=40\.7&lng=-74&radius=0\.05&type=cats/);
    expect(result.current.open?.location).toMatchObject({ key: 'cat-12', name: 'Whiskers' });
    act(() => result.current.close());
    expect(result.current.open).toBeNull();
  });

  it('opens a card from the results at once, and hovers only single items', async () => {
    const known: MapLocation = {
      key: 'cat-12',
      type: 'cat',
      id: 12,
      name: 'Whiskers',
      address: '1 Broadway, New York',
      latitude: 40.7,
      longitude: -74,
      rating: 4,
    };
    const { result, sent, onHighlight } = setup({ locations: [known] });
    await settle();
    const asked = sent.length;
    act(() => result.current.select(whiskers));
    expect(result.current.open).toEqual({ cluster: whiskers, location: known });
    expect(sent).toHaveLength(asked);
    act(() => result.current.hover(whiskers, true));
    act(() => result.current.hover(whiskers, false));
    act(() => result.current.hover(pair, true));
    expect(onHighlight.mock.calls).toEqual([['cat-12'], [null]]);
  });
});
