// The search text box as an ARIA 1.2 combobox: suggestions appear below it while typing; up and
// down move through them, Enter chooses the active one (or runs the full search when none is
// active), Escape closes the list. A polite live region says how many suggestions there are.
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useSuggestions } from '../hooks/use-suggestions.ts';
import { kindName, suggestionsAnnouncement, type Suggestion } from '../model/suggestions.ts';
import './SearchCombobox.css';

type SearchComboboxProps = {
  id: string;
  value: string;
  onChange(value: string): void;
  onChoose(suggestion: Suggestion): void;
  placeholder: string;
  maxLength: number;
};

export function SearchCombobox(props: SearchComboboxProps) {
  const { id, value, onChange, onChoose } = props;
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const suggestions = useSuggestions(value, open);
  const items = suggestions.items;
  const expanded = open && items.length > 0;
  const optionId = (index: number) => `${listId}-option-${index}`;

  // A new answer starts with no option active.
  useEffect(() => setActive(-1), [items]);

  function choose(suggestion: Suggestion) {
    setOpen(false);
    onChoose(suggestion);
  }

  function move(step: number) {
    if (!expanded) {
      setOpen(true);
      return;
    }
    setActive((current) => {
      const next = current + step;
      if (next < -1) return items.length - 1;
      return next >= items.length ? -1 : next;
    });
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Escape') {
      if (expanded) event.preventDefault();
      setOpen(false);
    } else if (event.key === 'Enter') {
      const chosen = expanded ? items[active] : undefined;
      if (chosen) {
        event.preventDefault();
        choose(chosen);
      } else setOpen(false);
    }
  }

  return (
    <div className="search-combobox">
      <input
        id={id}
        className="input search-controls__input"
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        value={value}
        onChange={(e) => {
          setOpen(true);
          onChange(e.target.value);
        }}
        onKeyDown={handleKeyDown}
        onBlur={() => setOpen(false)}
        placeholder={props.placeholder}
        maxLength={props.maxLength}
        autoComplete="off"
        enterKeyHint="search"
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Suggestions"
        className="search-combobox__list"
        hidden={!expanded}
      >
        {expanded &&
          items.map((suggestion, index) => (
            <li
              key={`${suggestion.kind}-${suggestion.id ?? suggestion.label}`}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              className={index === active ? 'search-combobox__option is-active' : 'search-combobox__option'}
              // Keeps the focus in the text box, so the click is not lost to its blur.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(suggestion)}
            >
              <span className="search-combobox__label">{suggestion.label}</span>
              <span className="search-combobox__meta">
                {kindName(suggestion.kind)}
                {suggestion.detail ? ` · ${suggestion.detail}` : ''}
              </span>
            </li>
          ))}
      </ul>
      <div className="visually-hidden" role="status" aria-live="polite">
        {open && suggestions.query !== null ? suggestionsAnnouncement(items.length) : ''}
      </div>
    </div>
  );
}
