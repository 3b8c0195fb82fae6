import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  useMapClusters,
  type Camera,
} from '../../../../client/src/features/search/hooks/use-map-clusters.ts';
import { DEFAULT_SEARCH_STATE } from '../../../../client/src/features/search/model/search-state.ts';
import { scriptedFetch, type Reply } from '../../helpers.ts';

class QuietSocket {
  static last: QuietSocket | null = null;
  onopen = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose = null;
  onerror = null;
  constructor() {
    QuietSocket.last = this;
  }
  close() {}
  /** A message from the server, as the live stream would hear it. */
  hear(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

const camera = (west: number): Camera => ({
  box: { west, south: 40.6, east: west + 0.1, north: 40.8 },
  zoom: 13,
});
const answer = (count: number): Reply => ({
  status: 200,
  body: { zoom: 13, total: count, clusters: [{ lat: 40.7, lng: -73.95, count }] },
});

async function wait(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
  vi.stubGlobal('WebSocket', QuietSocket);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the street map asking for clusters', () => {
  it('asks once the map has stopped moving, for the last view only', async () => {
    const { sent } = scriptedFetch(() => answer(5));
    const { result, rerender } = renderHook(({ at }) => useMapClusters(DEFAULT_SEARCH_STATE, at), {
      initialProps: { at: camera(-74.1) },
    });
    await wait(100);
    rerender({ at: camera(-74.05) });
    await wait(100);
    rerender({ at: camera(-74.0) });
    await wait(300);
    expect(sent.map((r) => r.url)).toEqual([
      '/api/map?west=-74&south=40.6&east=-73.9&north=40.8&zoom=13&type=cats',
    ]);
    expect(result.current.view?.answer.total).toBe(5);
  });

  it('drops an answer to an older view that arrives after a newer one', async () => {
    let releaseOld: (reply: Reply) => void = () => {};
    const { sent } = scriptedFetch((request) =>
      request.url.includes('west=-74.1&')
        ? new Promise<Reply>((resolve) => (releaseOld = resolve))
        : answer(2),
    );
    const { result, rerender } = renderHook(({ at }) => useMapClusters(DEFAULT_SEARCH_STATE, at), {
      initialProps: { at: camera(-74.1) },
    });
    await wait(300);
    rerender({ at: camera(-73.9) });
    await wait(300);
    expect(sent).toHaveLength(2);
    expect(result.current.view?.answer.total).toBe(2);
    releaseOld(answer(40));
    await wait(10);
    expect(result.current.view?.answer.total).toBe(2);
    expect(result.current.view?.box.west).toBe(-73.9);
  });

  it("passes the tab and its filters, and shows no other tab's clusters meanwhile", async () => {
    const { sent } = scriptedFetch(() => answer(3));
    const state = { ...DEFAULT_SEARCH_STATE, cat: { ...DEFAULT_SEARCH_STATE.cat, breed: 'Tabby' } };
    const { result, rerender } = renderHook(({ s }) => useMapClusters(s, camera(-74)), {
      initialProps: { s: state },
    });
    await wait(300);
    expect(sent.at(-1)!.url).toContain('type=cats&breed=Tabby');
    expect(result.current.view).not.toBeNull();
    rerender({ s: { ...state, tab: 'bodegas' } });
    expect(result.current.view).toBeNull();
    await wait(300);
    expect(sent.at(-1)!.url).toMatch(/type=bodegas$/);
    expect(result.current.view).not.toBeNull();
  });

  it('says so when the counts cannot be loaded', async () => {
    scriptedFetch(() => ({ status: 500, body: { error: 'boom', code: 'internal' } }));
    const { result } = renderHook(() => useMapClusters(DEFAULT_SEARCH_STATE, camera(-74)));
    await wait(300);
    expect(result.current.failed).toBe(true);
  });

  it('asks again when a moderator hides or restores a cat or a bodega, not for a review', async () => {
    const { sent } = scriptedFetch(() => answer(4));
    renderHook(() => useMapClusters(DEFAULT_SEARCH_STATE, camera(-74)));
    await wait(300);
    expect(sent).toHaveLength(1);
    const moderated = (type: string, target_type: string) => ({
      type,
      cursor: '100-1',
      at: '2026-11-24T12:00:00Z',
      data: { target_type, target_id: 7 },
    });
    act(() => QuietSocket.last!.hear(moderated('content.hidden', 'review')));
    await wait(300);
    expect(sent).toHaveLength(1);
    act(() => QuietSocket.last!.hear(moderated('content.hidden', 'cat')));
    await wait(300);
    expect(sent).toHaveLength(2);
    act(() => QuietSocket.last!.hear(moderated('content.restored', 'bodega')));
    await wait(300);
    expect(sent).toHaveLength(3);
  });
});
