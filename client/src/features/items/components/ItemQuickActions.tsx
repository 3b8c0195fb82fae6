import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { SavedFlag } from '../../saved/index.ts';
import type { TargetType } from '../../../lib/catalogue.ts';
import { ITEM_WORDS } from '../../../components/item-kinds.ts';

/** 'Search More Cats' / 'Search More Bodegas' (on the matching tab) and the item's save toggle. */
type ItemQuickActionsProps = { kind: TargetType; saved: SavedFlag; children?: ReactNode };

export function ItemQuickActions({ kind, saved, children }: ItemQuickActionsProps) {
  const { title } = ITEM_WORDS[kind];
  const heading = `${kind}-quick-actions`;
  return (
    <section className="card" aria-labelledby={heading}>
      <h2 id={heading} className="section-title">
        Quick Actions
      </h2>
      <div className="quick-actions">
        <Link to={kind === 'cat' ? '/search' : '/search?tab=bodegas'} className="button button--secondary">
          Search More {title}s
        </Link>
        <button
          type="button"
          className={saved.saved ? 'button button--secondary' : 'button button--primary'}
          onClick={() => void saved.toggle()}
          disabled={saved.busy}
        >
          {saved.saved ? 'Remove from Saved' : `Save ${title}`}
        </button>
        {children}
      </div>
    </section>
  );
}
