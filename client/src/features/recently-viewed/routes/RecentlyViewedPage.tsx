// /recently-viewed — the cats and bodegas the signed-in user opened lately, with Clear History.
import { useEffect, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { PageMessage } from '../../../components/PageMessage.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../auth/stores/session.ts';
import { clearRecentlyViewed } from '../api/clear-recently-viewed.ts';
import { getRecentlyViewed } from '../api/get-recently-viewed.ts';
import { ViewedItemCard } from '../components/ViewedItemCard.tsx';
import { useNow } from '../hooks/use-now.ts';
import type { ViewedItem } from '../types.ts';
import '../recently-viewed.css';

export default function RecentlyViewedPage() {
  useDocumentTitle('Recently Viewed');
  const user = useSession((s) => s.user);
  if (!user) {
    return (
      <div className="page">
        <PageMessage
          icon="clock"
          title="Recently Viewed"
          message="Please log in to view your recently viewed cats and bodegas."
          action={{ to: '/login', label: 'Login' }}
        />
      </div>
    );
  }
  return <History />;
}

function History() {
  const now = useNow();
  const [items, setItems] = useState<ViewedItem[]>([]);
  const [loading, setLoading] = useState(true);
  const [clearing, setClearing] = useState(false);

  useEffect(() => {
    let current = true;
    getRecentlyViewed()
      .then((body) => current && setItems(body.recently_viewed))
      .catch(
        (error: unknown) =>
          current && toast.error(errorMessage(error, 'Failed to load recently viewed items')),
      )
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, []);

  async function clear() {
    setClearing(true);
    try {
      await clearRecentlyViewed();
      setItems([]);
      toast.success('Recently viewed items cleared');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to clear recently viewed items'));
    } finally {
      setClearing(false);
    }
  }

  return (
    <div className="page viewed">
      <div className="viewed__header">
        <h1 className="viewed__title">Recently Viewed</h1>
        {items.length > 0 && (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => void clear()}
            disabled={clearing}
          >
            {clearing ? 'Clearing...' : 'Clear History'}
          </button>
        )}
      </div>
      {loading ? (
        <div className="page--centered">
          <Spinner label="Loading recently viewed items..." />
        </div>
      ) : items.length === 0 ? (
        <div className="item-list__empty">
          <p className="item-list__empty-title">No recently viewed items</p>
          <p>Cats and bodegas you open will show up here.</p>
        </div>
      ) : (
        <ul className="item-list">
          {items.map((item) => (
            <li key={`${item.type}-${item.id}`}>
              <ViewedItemCard item={item} now={now} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
