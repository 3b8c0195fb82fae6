// Suggestions while typing: what the server sends, and what choosing one does.
import type { Suggestion } from '../../../../../contract/search.ts';
import type { SearchState } from './search-state.ts';

export type { Suggestion };

/** Choosing a cat or bodega opens it; choosing a breed or personality filters the cats by it. */
export type SuggestionChoice = { open: string } | { search: SearchState };

/** The server accepts 1..100 characters; a longer query is cut, a blank one asks nothing. */
export const SUGGEST_MAX_LENGTH = 100;

export function suggestQuery(text: string): string | null {
  const q = text.trim().slice(0, SUGGEST_MAX_LENGTH);
  return q === '' ? null : q;
}

export function choose(suggestion: Suggestion, state: SearchState): SuggestionChoice {
  switch (suggestion.kind) {
    case 'cat':
      return { open: `/cat/${suggestion.id}` };
    case 'bodega':
      return { open: `/bodega/${suggestion.id}` };
    case 'breed':
    case 'personality':
      return {
        search: { ...state, q: '', tab: 'cats', cat: { ...state.cat, [suggestion.kind]: suggestion.label } },
      };
  }
}

const KIND_NAMES: Record<Suggestion['kind'], string> = {
  cat: 'Cat',
  bodega: 'Bodega',
  breed: 'Breed',
  personality: 'Personality',
};

export function kindName(kind: Suggestion['kind']): string {
  return KIND_NAMES[kind];
}

/** What the live region says once suggestions have arrived. */
export function suggestionsAnnouncement(count: number): string {
  if (count === 0) return 'No suggestions.';
  return `${count} suggestion${count === 1 ? '' : 's'} available. Use up and down arrows to choose.`;
}
