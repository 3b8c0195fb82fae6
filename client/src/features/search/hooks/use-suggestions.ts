import { useEffect, useState } from 'react';
import { fetchSuggestions } from '../api/suggest.ts';
import { suggestQuery, type Suggestion } from '../model/suggestions.ts';

/** How long typing must pause before suggestions are asked for. */
export const SUGGEST_DEBOUNCE_MS = 130;

export type Suggestions = {
  /** The query these suggestions answer (null: none asked for, or the last one failed). */
  query: string | null;
  items: Suggestion[];
};

const NONE: Suggestions = { query: null, items: [] };

/**
 * Suggestions for `text` once typing pauses. A newer text aborts the request in flight, and an
 * answer that arrives for anything but the current text is dropped. Failures show no suggestions
 * (the full search still works).
 */
export function useSuggestions(text: string, enabled: boolean): Suggestions {
  const [suggestions, setSuggestions] = useState<Suggestions>(NONE);
  const q = enabled ? suggestQuery(text) : null;

  useEffect(() => {
    if (q === null) {
      setSuggestions(NONE);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetchSuggestions(q, controller.signal)
        .then((items) => {
          if (!controller.signal.aborted) setSuggestions({ query: q, items });
        })
        .catch(() => {
          if (!controller.signal.aborted) setSuggestions(NONE);
        });
    }, SUGGEST_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q]);

  // Until the answer for the current text arrives, an older one is not shown.
  return suggestions.query === q ? suggestions : NONE;
}
