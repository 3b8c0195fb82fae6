// Where the API lives. Unset (or '') means the same origin that served this page: the server
// that ships the client is also the backend. A build that must not talk to any backend (e.g. a
// static preview deployed without one) sets VITE_API_BASE_URL=none; the app then shows the
// 'Backend Not Configured' panel instead of failing every call.
export const API_NOT_CONFIGURED_MARKER = 'none';

export function resolveApiBase(raw: string | undefined): { configured: boolean; baseUrl: string } {
  const value = (raw ?? '').trim();
  if (value.toLowerCase() === API_NOT_CONFIGURED_MARKER) return { configured: false, baseUrl: '' };
  return { configured: true, baseUrl: value.replace(/\/+$/, '') };
}

const resolved = resolveApiBase(import.meta.env.VITE_API_BASE_URL as string | undefined);

export const env = {
  apiBaseUrl: resolved.baseUrl,
  apiConfigured: resolved.configured,
  productName: 'Bodega Cats',
};
