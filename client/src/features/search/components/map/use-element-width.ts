import { useEffect, useState, type RefObject } from 'react';

/** The element's width in CSS pixels, following resizes (640 until it is measured). */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(640);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth || 640);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.round(entry.contentRect.width) || 640);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
