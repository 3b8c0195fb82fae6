// Telling Google Maps failures apart. A bad key does not fail the script load: Maps calls
// window.gm_authFailure and logs the reason ("Google Maps JavaScript API error: <Name>") to the
// console, so the reason is read from there.
export type MapErrorKind = 'denied' | 'over-quota' | 'invalid-key' | 'load-failed';

export const MAP_ERROR_MESSAGES: Record<MapErrorKind, string> = {
  denied:
    'Map request denied: this site is not allowed to use the configured Google Maps key, or the Maps JavaScript API is not enabled for it.',
  'over-quota':
    'Map unavailable: the Google Maps usage quota for this site has been exceeded. Please try again later.',
  'invalid-key':
    'Map unavailable: the Google Maps API key is invalid. Please check the key this site is configured with.',
  'load-failed': 'Google Maps could not be loaded. Please check your connection and try again.',
};

export function classifyMapError(text: string | null | undefined): MapErrorKind {
  const value = text ?? '';
  if (/OverQuota|OVER_QUERY_LIMIT|quota/i.test(value)) return 'over-quota';
  if (
    /RefererNotAllowed|ApiNotActivated|ApiTargetBlocked|REQUEST_DENIED|denied|not authorized/i.test(value)
  ) {
    return 'denied';
  }
  if (/InvalidKey|MissingKey|ExpiredKey|InvalidClientId|invalid.*key|key.*invalid/i.test(value))
    return 'invalid-key';
  return 'load-failed';
}

type Listener = (kind: MapErrorKind) => void;

let lastMapsConsoleError: string | null = null;
let watching = false;

/** Remember the newest "Google Maps JavaScript API error" line without hiding it from the console. */
function watchConsole(): void {
  if (watching || typeof console === 'undefined') return;
  watching = true;
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const line = args.map(String).join(' ');
    if (/Google Maps JavaScript API (error|warning)/i.test(line)) lastMapsConsoleError = line;
    original(...args);
  };
}

/** Calls `listener` when Google rejects the key; returns the way to stop listening. */
export function onMapsAuthFailure(listener: Listener): () => void {
  watchConsole();
  const globals = window as unknown as { gm_authFailure?: () => void };
  const report = () => {
    const kind = classifyMapError(lastMapsConsoleError);
    // An auth failure with no recognisable reason is still a key problem.
    listener(kind === 'load-failed' ? 'invalid-key' : kind);
  };
  // The console line may be written just after the callback runs: give it a moment.
  globals.gm_authFailure = () => void setTimeout(report, 50);
  return () => {
    if (globals.gm_authFailure) delete globals.gm_authFailure;
  };
}
