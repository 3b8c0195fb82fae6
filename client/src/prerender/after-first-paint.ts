// React's first commit replaces a prerendered screen (see show-frame.js) with the same markup. It
// waits until the browser has presented that screen: a node removed before its frame is presented
// is left out of the page's paint timings (Largest Contentful Paint), though visitors saw it.

const PAINT_WAIT_LIMIT_MS = 1000;

function contentfulPaintReported(): boolean {
  return performance.getEntriesByName('first-contentful-paint', 'paint').length > 0;
}

/** Resolves once the first contentful paint has been reported; at most a second later. */
export function afterFirstContentfulPaint(): Promise<void> {
  const observable =
    typeof PerformanceObserver !== 'undefined' &&
    (PerformanceObserver.supportedEntryTypes ?? []).includes('paint');
  return new Promise((resolve) => {
    let observer: PerformanceObserver | null = null;
    const finish = () => {
      observer?.disconnect();
      clearTimeout(limit);
      // A task later, so that the rest of that paint's timing entries are in too.
      setTimeout(resolve, 0);
    };
    const limit = setTimeout(finish, PAINT_WAIT_LIMIT_MS);
    if (!observable) {
      requestAnimationFrame(() => setTimeout(finish, 0));
    } else if (contentfulPaintReported()) {
      finish();
    } else {
      observer = new PerformanceObserver(() => {
        if (contentfulPaintReported()) finish();
      });
      observer.observe({ type: 'paint' });
    }
  });
}
