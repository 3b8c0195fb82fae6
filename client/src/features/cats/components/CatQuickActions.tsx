import { Link } from 'react-router-dom';
import type { SavedFlag } from '../../../hooks/use-saved-flag.ts';

export function CatQuickActions({ saved }: { saved: SavedFlag }) {
  return (
    <section className="card" aria-labelledby="cat-quick-actions">
      <h2 id="cat-quick-actions" className="section-title">
        Quick Actions
      </h2>
      <div className="quick-actions">
        <Link to="/search" className="button button--secondary">
          Search More Cats
        </Link>
        <button
          type="button"
          className={saved.saved ? 'button button--secondary' : 'button button--primary'}
          onClick={() => void saved.toggle()}
          disabled={saved.busy}
        >
          {saved.saved ? 'Remove from Saved' : 'Save Cat'}
        </button>
      </div>
    </section>
  );
}
