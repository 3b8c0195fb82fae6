import { useEffect, useRef } from 'react';

/**
 * The info card stays while the pointer or focus is on a marker or on the card itself, and goes
 * a moment after both left (so the pointer can travel from one to the other).
 */
export function useInfoHover(onHighlight: (key: string | null) => void) {
  const clearTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  function keepInfo() {
    if (clearTimer.current) clearTimeout(clearTimer.current);
    clearTimer.current = null;
  }

  function releaseInfo() {
    keepInfo();
    clearTimer.current = setTimeout(() => onHighlight(null), 250);
  }

  useEffect(() => keepInfo, []);
  return { keepInfo, releaseInfo };
}
