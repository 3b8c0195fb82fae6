// /saved — the cats and bodegas the signed-in user saved, in two tabs.
import { useEffect, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast/headless';
import { PageMessage } from '../../../components/PageMessage.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { Tabs } from '../../../components/Tabs.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../auth/stores/session.ts';
import { getSavedBodegas } from '../api/get-saved-bodegas.ts';
import { getSavedCats } from '../api/get-saved-cats.ts';
import { SavedBodegaCard, SavedCatCard } from '../components/SavedCards.tsx';
import { useSavedList, type SavedList } from '../hooks/use-saved-list.ts';
import type { SavedBodega, SavedCat, SavedKind } from '../types.ts';
import '../saved.css';

const catsPage = (page: number) =>
  getSavedCats(page).then((b) => ({ items: b.saved_cats, pagination: b.pagination }));
const bodegasPage = (page: number) =>
  getSavedBodegas(page).then((b) => ({ items: b.saved_bodegas, pagination: b.pagination }));

export default function SavedPage() {
  useDocumentTitle('Your Saved Items');
  const user = useSession((s) => s.user);
  if (!user) {
    return (
      <div className="page">
        <PageMessage
          icon="heart"
          title="Your Saved Items"
          message="Please log in to view your saved cats and bodegas."
          action={{ to: '/login', label: 'Login' }}
        />
      </div>
    );
  }
  return <SavedLists />;
}

function SavedLists() {
  const [tab, setTab] = useState<SavedKind>('cats');
  const [loading, setLoading] = useState(true);
  const cats = useSavedList<SavedCat>('cats', catsPage);
  const bodegas = useSavedList<SavedBodega>('bodegas', bodegasPage);
  const { setFirstPage: setCats } = cats;
  const { setFirstPage: setBodegas } = bodegas;

  useEffect(() => {
    let current = true;
    Promise.all([catsPage(1), bodegasPage(1)])
      .then(([c, b]) => {
        if (!current) return;
        setCats(c);
        setBodegas(b);
      })
      .catch((error: unknown) => current && toast.error(errorMessage(error, 'Failed to load saved items')))
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [setCats, setBodegas]);

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
