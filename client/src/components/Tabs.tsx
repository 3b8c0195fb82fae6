// Accessible tabs: arrow keys, Home and End move between tabs; the panel is labelled by its tab.
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import './tabs.css';

export type TabItem<K extends string> = { key: K; label: string };

type TabsProps<K extends string> = {
  label: string;
  tabs: readonly TabItem<K>[];
  selected: K;
  onSelect(key: K): void;
  children: ReactNode;
};

export function Tabs<K extends string>({ label, tabs, selected, onSelect, children }: TabsProps<K>) {
  const base = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  function move(event: KeyboardEvent) {
    const current = tabs.findIndex((t) => t.key === selected);
    const last = tabs.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (current + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (current - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    onSelect(tab.key);
    buttons.current[next]?.focus();
  }

  return (
    <>
      <div className="item-tabs" role="tablist" aria-label={label} onKeyDown={move}>
        {tabs.map((tab, index) => {
          const active = tab.key === selected;
          return (
            <button
              key={tab.key}
              ref={(el) => {
                buttons.current[index] = el;
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${tab.key}`}
              aria-selected={active}
              aria-controls={`${base}-panel`}
              tabIndex={active ? 0 : -1}
              className={active ? 'item-tabs__tab item-tabs__tab--active' : 'item-tabs__tab'}
              onClick={() => onSelect(tab.key)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div
        className="item-tabs__panel"
        role="tabpanel"
        id={`${base}-panel`}
        aria-labelledby={`${base}-tab-${selected}`}
        tabIndex={0}
      >
        {children}
      </div>
    </>
  );
}
