// /recently-viewed — the cats and bodegas the signed-in user opened lately, with Clear History.
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import toast from 'react-hot-toast/headless';
import { SignedInOnly } from '../../auth/index.ts';
import { Spinner } from '../../../components/Spinner.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { errorMessage } from '../../../lib/api.ts';
import { useClearRecentlyViewedMutation } from '../api/clear-recently-viewed.ts';
import { recentlyViewedQuery } from '../api/get-recently-viewed.ts';
import { ViewedItemCard } from '../components/ViewedItemCard.tsx';
import { useNow } from '../hooks/use-now.ts';
import '../recently-viewed.css';

export default function RecentlyViewedPage() {
  useDocumentTitle('Recently Viewed');
  return (
    <SignedInOnly
      icon="clock"
      title="Recently Viewed"
      message="Please log in to view your recently viewed cats and bodegas."
    >
      <History />
    </SignedInOnly>
  );
}

function History() {
  const now = useNow();
  const { data, error, isPending: loading } = useQuery(recentlyViewedQuery);
  const items = data ?? [];
  const clearHistory = useClearRecentlyViewedMutation();

  useEffect(() => {
    if (error) toast.error(errorMessage(error, 'Failed to load recently viewed items'));
  }, [error]);

  async function clear() {
    try {
      await clearHistory.mutateAsync();
      toast.success('Recently viewed items cleared');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to clear recently viewed items'));
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
            disabled={clearHistory.isPending}
          >
            {clearHistory.isPending ? 'Clearing...' : 'Clear History'}
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
