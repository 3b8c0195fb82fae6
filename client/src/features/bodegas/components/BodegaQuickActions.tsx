import { Link } from 'react-router-dom';
import type { SavedFlag } from '../../../hooks/use-saved-flag.ts';

export function BodegaQuickActions({ saved }: { saved: SavedFlag }) {
  return (
    <section className="card" aria-labelledby="bodega-quick-actions">
      <h2 id="bodega-quick-actions" className="section-title">
        Quick Actions
      </h2>
      <div className="quick-actions">
        <Link to="/search?tab=bodegas" className="button button--secondary">
          Search More Bodegas
        </Link>
        <button
          type="button"
          className={saved.saved ? 'button button--secondary' : 'button button--primary'}
          onClick={() => void saved.toggle()}
          disabled={saved.busy}
        >
          {saved.saved ? 'Remove from Saved' : 'Save Bodega'}
        </button>
      </div>
    </section>
  );
}
