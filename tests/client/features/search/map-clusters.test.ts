import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerLevel, cellSize } from '../../../../contract/map-grid.ts';
import { clampBox, formatArea, parseArea } from '../../../../client/src/features/search/model/area.ts';
import {
  addToClusters,
  clusterLabel,
  clusterQuery,
  removeFromClusters,
  type Box,
  type ClusterView,
} from '../../../../client/src/features/search/model/map-clusters.ts';
import { searchRequest } from '../../../../client/src/features/search/model/search-request.ts';
import { DEFAULT_SEARCH_STATE } from '../../../../client/src/features/search/model/search-state.ts';

const CITY: Box = { west: -74.26, south: 40.49, east: -73.7, north: 40.92 };

function view(zoom: number, clusters: ClusterView['answer']['clusters'], box = CITY): ClusterView {
  return { box, answer: { zoom, total: clusters.reduce((s, c) => s + c.count, 0), clusters } };
}

/** Items grouped as the server groups them: by grid cell of the answer's level, mean coordinates. */
function serverClusters(box: Box, zoom: number, items: { id: number; lat: number; lng: number }[]) {
  const size = cellSize(answerLevel(box, zoom));
  const cells = new Map<string, { id: number; lat: number; lng: number }[]>();
  for (const item of items) {
    const key = `${Math.floor(item.lng / size)} ${Math.floor(item.lat / size)}`;
    cells.set(key, [...(cells.get(key) ?? []), item]);
  }
  return [...cells.values()].map((members) => ({
    lat: members.reduce((s, m) => s + m.lat, 0) / members.length,
    lng: members.reduce((s, m) => s + m.lng, 0) / members.length,
    count: members.length,
    ...(members.length === 1 ? { id: members[0]!.id, name: `item ${members[0]!.id}` } : {}),
  }));
}

const point = fc.record({
  lat: fc.double({ min: CITY.south, max: CITY.north, noNaN: true }),
  lng: fc.double({ min: CITY.west, max: CITY.east, noNaN: true }),
});

describe('live items on the clusters', () => {
  it('adds an item to the cluster of its cell, as the server would count it', () => {
    fc.assert(
      fc.property(
        fc.array(point, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 9, max: 16 }),
        (points, zoom) => {
          const items = points.map((p, i) => ({ ...p, id: i + 1 }));
          const [last, ...rest] = [items.at(-1)!, ...items.slice(0, -1)];
          const bumped = addToClusters(view(zoom, serverClusters(CITY, zoom, rest)), {
            ...last,
            name: `item ${last.id}`,
          });
          const expected = serverClusters(CITY, zoom, items);
          expect(bumped.answer.total).toBe(items.length);
          const counts = (cs: { count: number }[]) => cs.map((c) => c.count).sort((a, b) => a - b);
          expect(counts(bumped.answer.clusters)).toEqual(counts(expected));
        },
      ),
    );
  });

  it('takes a deleted item out of its cluster, and its own cluster away', () => {
    const start = view(17, [
      { lat: 40.7, lng: -74, count: 3 },
      { lat: 40.8, lng: -73.9, count: 1, id: 7, name: 'Mango' },
    ]);
    const fewer = removeFromClusters(start, { id: 2, lat: 40.7, lng: -74 });
    expect(fewer.answer.clusters).toEqual([
      { lat: 40.7, lng: -74, count: 2 },
      { lat: 40.8, lng: -73.9, count: 1, id: 7, name: 'Mango' },
    ]);
    expect(fewer.answer.total).toBe(3);
    const gone = removeFromClusters(fewer, { id: 7, lat: 40.8, lng: -73.9 });
    expect(gone.answer.clusters).toEqual([{ lat: 40.7, lng: -74, count: 2 }]);
    expect(gone.answer.total).toBe(2);
  });

  it('leaves the view alone for items outside its box or in no cluster', () => {
    const start = view(12, [{ lat: 40.7, lng: -74, count: 3 }]);
    expect(addToClusters(start, { id: 1, name: 'x', lat: 41.5, lng: -74 })).toBe(start);
    expect(removeFromClusters(start, { id: 1, lat: 40.9, lng: -73.71 })).toBe(start);
  });

  it('starts a new single cluster, named, where there was none', () => {
    const start = view(17, []);
    const next = addToClusters(start, { id: 4, name: 'Pepper', lat: 40.75, lng: -73.98 });
    expect(next.answer).toEqual({
      zoom: 17,
      total: 1,
      clusters: [{ lat: 40.75, lng: -73.98, count: 1, id: 4, name: 'Pepper' }],
    });
  });
});

describe('the searched map area in the URL', () => {
  it('round-trips a box at five decimals', () => {
    const box = { west: -74.012264, south: 40.619417, east: -73.825741, north: 40.730539 };
    expect(formatArea(box)).toBe('-74.01226,40.61942,-73.82574,40.73054');
    expect(parseArea(formatArea(box))).toEqual({
      west: -74.01226,
      south: 40.61942,
      east: -73.82574,
      north: 40.73054,
    });
  });

  it("limits the list's search to the area, before the user's own position", () => {
    const area = { west: -74.01, south: 40.7, east: -73.97, north: 40.73 };
    const request = searchRequest({ ...DEFAULT_SEARCH_STATE, area }, { lat: 40.75, lng: -73.98 });
    expect(request).toEqual({
      path: '/api/search/cats',
      query: { per_page: '20', west: '-74.01', south: '40.7', east: '-73.97', north: '40.73' },
    });
  });

  it('ignores a malformed, partial, inverted or out-of-range area', () => {
    for (const raw of [
      null,
      '',
      '1,2,3',
      '1,2,3,4,5',
      'a,b,c,d',
      '-74,,-73,41',
      '-73,40,-74,41',
      '-74,41,-73,40',
      '-74,40,-74,41',
      '-181,40,-73,41',
      '-74,40,-73,91',
    ])
      expect(parseArea(raw), String(raw)).toBeNull();
  });

  it('clamps a view wider than the world and refuses an empty one', () => {
    expect(clampBox({ west: -200, south: -95, east: 200, north: 95 })).toEqual({
      west: -180,
      south: -90,
      east: 180,
      north: 90,
    });
    expect(clampBox({ west: 10, south: 0, east: 10, north: 1 })).toBeNull();
  });
});

describe('the cluster request and names', () => {
  it("passes the tab's filters and text with the box and a whole zoom", () => {
    const state = {
      ...DEFAULT_SEARCH_STATE,
      q: ' tabby ',
      cat: { ...DEFAULT_SEARCH_STATE.cat, breed: 'Tabby', friendliness: 'friendly' as const },
    };
    expect(clusterQuery(state, CITY, 11.7)).toEqual({
      west: '-74.26',
      south: '40.49',
      east: '-73.7',
      north: '40.92',
      zoom: '11',
      type: 'cats',
      q: 'tabby',
      breed: 'Tabby',
      is_friendly: 'true',
    });
    const bodegas = { ...state, tab: 'bodegas' as const, bodega: { ...state.bodega, verifiedOnly: true } };
    expect(clusterQuery(bodegas, CITY, 22)).toMatchObject({
      type: 'bodegas',
      zoom: '20',
      verified_only: 'true',
    });
    expect(clusterQuery(bodegas, CITY, 22)).not.toHaveProperty('breed');
  });

  it('names cluster buttons by their count, and a single item by its name', () => {
    expect(clusterLabel({ lat: 0, lng: 0, count: 12 }, 'cats')).toBe('12 cats near here');
    expect(clusterLabel({ lat: 0, lng: 0, count: 3 }, 'bodegas')).toBe('3 bodegas near here');
    expect(clusterLabel({ lat: 0, lng: 0, count: 1 }, 'bodegas')).toBe('1 bodega near here');
    expect(clusterLabel({ lat: 0, lng: 0, count: 1, id: 3, name: 'Mango' }, 'cats')).toBe('Mango');
  });
});
