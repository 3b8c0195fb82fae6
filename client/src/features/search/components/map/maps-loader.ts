// Loads the Google Maps script (weekly version, places library) once per page. A failed load is
// retried after attempt x 2^attempt ms, up to `retries` times, then the failure is reported.
/// <reference types="google.maps" />

export type ScriptInjector = (src: string) => Promise<void>;

export type LoadOptions = {
  retries?: number;
  inject?: ScriptInjector;
  sleep?: (ms: number) => Promise<void>;
};

export const DEFAULT_RETRIES = 3;
const READY_CALLBACK = '__bodegaCatsMapsReady';

export function retryWait(attempt: number): number {
  return attempt * 2 ** attempt;
}

export function mapsScriptUrl(key: string): string {
  const params = new URLSearchParams({ key, v: 'weekly', libraries: 'places', callback: READY_CALLBACK });
  return `https://maps.googleapis.com/maps/api/js?${params.toString()}`;
}

function injectScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const globals = window as unknown as Record<string, unknown>;
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.dataset.mapsLoader = 'true';
    globals[READY_CALLBACK] = () => resolve();
    script.onerror = () => {
      script.remove();
      reject(new Error('The Google Maps script could not be loaded'));
    };
    document.head.appendChild(script);
  });
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function loadMapsScript(key: string, options: LoadOptions = {}): Promise<void> {
  const { retries = DEFAULT_RETRIES, inject = injectScript, sleep = pause } = options;
  const src = mapsScriptUrl(key);
  for (let attempt = 0; ; attempt++) {
    try {
      await inject(src);
      return;
    } catch (error) {
      if (attempt >= retries) throw error;
      await sleep(retryWait(attempt + 1));
    }
  }
}

let loading: { key: string; promise: Promise<void> } | null = null;

/** The shared load for this page; a failed one may be started again later. */
export function loadGoogleMaps(key: string): Promise<void> {
  if (typeof window !== 'undefined' && (window as { google?: { maps?: unknown } }).google?.maps) {
    return Promise.resolve();
  }
  if (loading?.key === key) return loading.promise;
  const promise = loadMapsScript(key).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  loading = { key, promise };
  return promise;
}
