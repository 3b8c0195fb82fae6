// /saved — the cats and bodegas the signed-in user saved, in two tabs.
import { useEffect, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast/headless';
import { SignedInOnly } from '../../auth/index.ts';
import { Spinner } from '../../../components/Spinner.tsx';
import { Tabs } from '../../../components/Tabs.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { errorMessage } from '../../../lib/api.ts';
import { savedBodegasQuery } from '../api/get-saved-bodegas.ts';
import { savedCatsQuery } from '../api/get-saved-cats.ts';
import { SavedBodegaCard, SavedCatCard } from '../components/SavedCards.tsx';
import { useSavedList, type SavedList } from '../hooks/use-saved-list.ts';
import type { SavedKind } from '../types.ts';
import '../saved.css';

export default function SavedPage() {
  useDocumentTitle('Your Saved Items');
  return (
    <SignedInOnly
      icon="heart"
      title="Your Saved Items"
      message="Please log in to view your saved cats and bodegas."
    >
      <SavedLists />
    </SignedInOnly>
  );
}

function SavedLists() {
  const [tab, setTab] = useState<SavedKind>('cats');
  const cats = useSavedList('cats', savedCatsQuery);
  const bodegas = useSavedList('bodegas', savedBodegasQuery);
  const loading = cats.loading || bodegas.loading;
  const failure = cats.error ?? bodegas.error;

  // One toast for the screen, however many of its lists failed to load.
  useEffect(() => {
    if (failure) toast.error(errorMessage(failure, 'Failed to load saved items'));
  }, [failure]);

  return (
    <div className="page saved">
      <h1 className="saved__title">Your Saved Items</h1>
      <Tabs<SavedKind>
        label="Saved items"
        tabs={[
          { key: 'cats', label: `Saved Cats (${cats.total})` },
          { key: 'bodegas', label: `Saved Bodegas (${bodegas.total})` },
        ]}
        selected={tab}
        onSelect={setTab}
      >
        {loading ? (
          <div className="page--centered">
            <Spinner label="Loading saved items..." />
          </div>
        ) : tab === 'cats' ? (
          <SavedItems
            list={cats}
            empty="No saved cats yet"
            hint="Tap the heart on a cat's page to save it here."
          >
            {(cat, busy, remove) => <SavedCatCard item={cat} busy={busy} onRemove={remove} />}
          </SavedItems>
        ) : (
          <SavedItems
            list={bodegas}
            empty="No saved bodegas yet"
            hint="Tap the heart on a bodega's page to save it here."
          >
            {(bodega, busy, remove) => <SavedBodegaCard item={bodega} busy={busy} onRemove={remove} />}
          </SavedItems>
        )}
      </Tabs>
    </div>
  );
}

type SavedItemsProps<T> = {
  list: SavedList<T>;
  empty: string;
  hint: string;
  children(item: T, busy: boolean, remove: () => void): ReactNode;
};

function SavedItems<T extends { id: number }>({ list, empty, hint, children }: SavedItemsProps<T>) {
  if (list.items.length === 0) {
    return (
      <div className="item-list__empty">
        <p className="item-list__empty-title">{empty}</p>
        <p>{hint}</p>
      </div>
    );
  }
  return (
    <>
      <ul className="item-list">
        {list.items.map((item) => (
          <li key={item.id}>{children(item, list.removing.has(item.id), () => void list.remove(item.id))}</li>
        ))}
      </ul>
      {list.hasMore && (
        <button
          type="button"
          className="button button--secondary saved__more"
          onClick={() => void list.loadMore()}
          disabled={list.loadingMore}
        >
          {list.loadingMore ? 'Loading...' : 'Load more'}
        </button>
      )}
    </>
  );
}
