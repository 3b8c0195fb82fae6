import { api } from '../../../lib/api.ts';
import type { Suggestion } from '../model/suggestions.ts';
import type { SuggestionList } from '../../../../../contract/search.ts';

/** Suggestions for what has been typed so far; aborting `signal` drops the request. */
export async function fetchSuggestions(q: string, signal: AbortSignal): Promise<Suggestion[]> {
  const body = await api.get<Partial<SuggestionList>>('/api/search/suggest', { query: { q }, signal });
  return body.suggestions ?? [];
}
