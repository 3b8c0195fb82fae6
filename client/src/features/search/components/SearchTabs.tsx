import { useRef, type KeyboardEvent } from 'react';
import type { SearchTab } from '../model/search-state.ts';
import './search-tabs.css';

const TABS: { id: SearchTab; label: string }[] = [
  { id: 'cats', label: 'Search Cats' },
  { id: 'bodegas', label: 'Search Bodegas' },
];

export const RESULTS_PANEL_ID = 'search-results-panel';

export function tabId(tab: SearchTab): string {
  return `search-tab-${tab}`;
}

/** 'Search Cats' / 'Search Bodegas', operable with arrow keys as a tab list. */
export function SearchTabs({ active, onChange }: { active: SearchTab; onChange(tab: SearchTab): void }) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});

  function handleKey(event: KeyboardEvent) {
    const index = TABS.findIndex((t) => t.id === active);
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % TABS.length,
      ArrowLeft: (index - 1 + TABS.length) % TABS.length,
      Home: 0,
      End: TABS.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const tab = TABS[next]!;
    onChange(tab.id);
    refs.current[tab.id]?.focus();
  }

  return (
    <div className="tabs" role="tablist" aria-label="What to search" onKeyDown={handleKey}>
      {TABS.map((tab) => (
        <button
          key={tab.id}
          ref={(element) => {
            refs.current[tab.id] = element;
          }}
          id={tabId(tab.id)}
          type="button"
          role="tab"
          aria-selected={tab.id === active}
          aria-controls={RESULTS_PANEL_ID}
          tabIndex={tab.id === active ? 0 : -1}
          className={tab.id === active ? 'tabs__tab is-active' : 'tabs__tab'}
          onClick={() => tab.id !== active && onChange(tab.id)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
