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
