import { api } from '../../../lib/api.ts';
import type { Suggestion } from '../model/suggestions.ts';

/** Suggestions for what has been typed so far; aborting `signal` drops the request. */
export async function fetchSuggestions(q: string, signal: AbortSignal): Promise<Suggestion[]> {
  const body = await api.get<{ suggestions?: Suggestion[] }>('/api/search/suggest', { query: { q }, signal });
  return body.suggestions ?? [];
}
