import { Icon } from '../../../components/Icon.tsx';
import type { FilterChip } from '../model/filters.ts';
import './filter-chips.css';

type FilterChipsProps = { chips: FilterChip[]; onRemove(id: string): void; onClearAll(): void };

/** The active filters as removable chips, with Clear All. */
export function FilterChips({ chips, onRemove, onClearAll }: FilterChipsProps) {
  if (chips.length === 0) return null;
  return (
    <div className="chips" aria-label="Active filters" role="group">
      {chips.map((chip) => (
        <span key={chip.id} className="chip">
          {chip.label}
          <button
            type="button"
            className="chip__remove"
            aria-label={`Remove filter ${chip.label}`}
            onClick={() => onRemove(chip.id)}
          >
            <Icon name="close" size={14} />
          </button>
        </span>
      ))}
      <button type="button" className="chips__clear" onClick={onClearAll}>
        Clear All
      </button>
    </div>
  );
}
