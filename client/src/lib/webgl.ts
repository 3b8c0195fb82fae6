/** Whether the browser can draw WebGL (the street map needs it); a lost or refused context is no. */
export function hasWebGL(): boolean {
  try {
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
    if (!context) return false;
    // Browsers keep only a few contexts: give this probe's back at once.
    context.getExtension('WEBGL_lose_context')?.loseContext();
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the browser offers WebGL at all, without making a context (making one is a round trip to
 * the GPU process and a long task on a slow phone). Where the API is there but a context is refused,
 * the street map's own constructor throws and the map says so, as it would after hasWebGL().
 */
export function offersWebGL(): boolean {
  return typeof WebGLRenderingContext !== 'undefined';
}
