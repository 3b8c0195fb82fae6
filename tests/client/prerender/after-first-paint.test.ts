// React replaces a prerendered screen only once the browser has reported painting it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstContentfulPaint } from '../../../client/src/prerender/after-first-paint.ts';

let painted = false;
let observers: FakeObserver[] = [];

class FakeObserver {
  static supportedEntryTypes = ['paint', 'largest-contentful-paint'];
  observing = false;
  constructor(readonly callback: () => void) {
    observers.push(this);
  }
  observe() {
    this.observing = true;
  }
  disconnect() {
    this.observing = false;
  }
}

function paint() {
  painted = true;
  for (const observer of observers) if (observer.observing) observer.callback();
}

function settled(promise: Promise<void>): () => boolean {
  let done = false;
  void promise.then(() => (done = true));
  return () => done;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  painted = false;
  observers = [];
});

function stubPaintTimings() {
  vi.useFakeTimers();
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  vi.spyOn(performance, 'getEntriesByName').mockImplementation((name) =>
    painted && name === 'first-contentful-paint' ? [{ name } as PerformanceEntry] : [],
  );
}

describe('waiting for the prerendered screen to be painted', () => {
  it('goes on at once when the first contentful paint is already reported', async () => {
    stubPaintTimings();
    painted = true;
    const done = settled(afterFirstContentfulPaint());
    await vi.advanceTimersByTimeAsync(1);
    expect(done()).toBe(true);
  });

  it('waits for the first contentful paint to be reported', async () => {
    stubPaintTimings();
    const done = settled(afterFirstContentfulPaint());
    await vi.advanceTimersByTimeAsync(300);
    expect(done()).toBe(false);
    paint();
    await vi.advanceTimersByTimeAsync(1);
    expect(done()).toBe(true);
    expect(observers.every((observer) => !observer.observing)).toBe(true);
  });

  it('waits a second at most (a page in a background tab is not painted)', async () => {
    stubPaintTimings();
    const done = settled(afterFirstContentfulPaint());
    await vi.advanceTimersByTimeAsync(999);
    expect(done()).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(done()).toBe(true);
  });

  it('waits one frame where paint timings are not observable', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('PerformanceObserver', undefined);
    const frame = vi.fn<(callback: FrameRequestCallback) => number>(() => 1);
    vi.stubGlobal('requestAnimationFrame', frame);
    const done = settled(afterFirstContentfulPaint());
    await vi.advanceTimersByTimeAsync(10);
    expect(done()).toBe(false);
    frame.mock.calls[0]?.[0](0);
    await vi.advanceTimersByTimeAsync(1);
    expect(done()).toBe(true);
  });
});
