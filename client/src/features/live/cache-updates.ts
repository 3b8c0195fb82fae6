// How the live stream changes the cached server data: one function per kind of item, each
// updating every cached read that shows it (a cat's or bodega's page, their cats, search results,
// reviews). Reviews and photos change through their features' own cache updates (their live.ts),
// which their writes use too. A screen shows the change because it reads the cache; nothing is
// applied twice.
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type {
  BodegaResponse,
  BodegaSummary,
  CatResponse,
  CatSummary,
  TargetType,
} from '../../lib/catalogue.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { photoAdded, photoMadePrimary, photoRemoved } from '../photos/live.ts';
import { addReview } from '../reviews/live.ts';
import type { SearchResults } from '../search/live.ts';
import type { LiveData, LiveEvent, LiveMessage } from './types.ts';

type CatData = CatResponse | null;
type BodegaData = BodegaResponse | null;
type SearchData = InfiniteData<SearchResults>;
type PhotoEvent = LiveEvent<'photo.ready' | 'photo.primary' | 'photo.deleted'>;

// --- Where the data sits ---------------------------------------------------------------------

/** Changes every cached cat page (null: the cat no longer exists). */
function updateCatPages(client: QueryClient, update: (data: CatResponse) => CatData): void {
  client.setQueriesData<CatData>({ queryKey: queryKeys.cats }, (data) => (data ? update(data) : data));
}

function updateBodegaPages(client: QueryClient, update: (data: BodegaResponse) => BodegaData): void {
  client.setQueriesData<BodegaData>({ queryKey: queryKeys.bodegas }, (data) => (data ? update(data) : data));
}

/** Changes every page of every cached search of one tab. */
function updateSearches<K extends SearchResults['kind']>(
  client: QueryClient,
  kind: K,
  update: (page: Extract<SearchResults, { kind: K }>) => SearchResults,
): void {
  client.setQueriesData<SearchData>({ queryKey: queryKeys.searches }, (data) => {
    if (!data) return data;
    const pages = data.pages.map((page) =>
      page.kind === kind ? update(page as Extract<SearchResults, { kind: K }>) : page,
    );
    return pages.every((page, i) => page === data.pages[i]) ? data : { ...data, pages };
  });
}

/** Patches the listed item with `id`; the same array back when it is not listed. */
function patchListed<T extends { id: number }>(items: T[], id: number, patch: (item: T) => Partial<T>): T[] {
  if (!items.some((item) => item.id === id)) return items;
  return items.map((item) => (item.id === id ? { ...item, ...patch(item) } : item));
}

type Listed<K extends SearchResults['kind']> = Extract<SearchResults, { kind: K }>['items'][number];

function patchSearchItem<K extends SearchResults['kind']>(
  client: QueryClient,
  kind: K,
  id: number,
  patch: (item: Listed<K>) => Partial<Listed<K>>,
): void {
  updateSearches(client, kind, (page) => {
    const items = patchListed(page.items as Listed<K>[], id, patch);
    return items === page.items ? page : ({ ...page, items } as SearchResults);
  });
}

/** Drops an item from the searches that list it; their total counts one fewer. */
function removeFromSearches(client: QueryClient, kind: SearchResults['kind'], id: number): void {
  client.setQueriesData<SearchData>({ queryKey: queryKeys.searches }, (data) => {
    const listed = data?.pages.some(
      (page) => page.kind === kind && page.items.some((item) => item.id === id),
    );
    if (!data || !listed) return data;
    const pages = data.pages.map(
      (page) =>
        ({
          ...page,
          items: (page.items as { id: number }[]).filter((item) => item.id !== id),
          total: Math.max(0, page.total - 1),
        }) as SearchResults,
    );
    return { ...data, pages };
  });
}

// --- One function per kind of item -----------------------------------------------------------

export function applyCatAdded(client: QueryClient, cat: CatSummary): void {
  updateBodegaPages(client, (data) => {
    const { bodega, cats } = data;
    if (bodega.id !== cat.bodega_id || cats.some((c) => c.id === cat.id)) return data;
    return { bodega: { ...bodega, cat_count: bodega.cat_count + 1 }, cats: [...cats, cat] };
  });
  patchSearchItem(client, 'bodegas', cat.bodega_id, (b) => ({ cat_count: b.cat_count + 1 }));
}

/** Changes a cat's fields wherever it is shown: its page, its bodega's list, search results. */
function patchCat(client: QueryClient, id: number, patch: Partial<CatSummary>): void {
  updateCatPages(client, (d) => (d.cat.id === id ? { ...d, cat: { ...d.cat, ...patch } } : d));
  updateBodegaPages(client, (d) => {
    const cats = patchListed(d.cats, id, () => patch);
    return cats === d.cats ? d : { ...d, cats };
  });
  patchSearchItem(client, 'cats', id, () => patch);
}

/** Changes a bodega's fields wherever it is shown: its page, its cats' pages, search results. */
function patchBodega(client: QueryClient, id: number, patch: Partial<BodegaSummary>): void {
  updateBodegaPages(client, (d) => (d.bodega.id === id ? { ...d, bodega: { ...d.bodega, ...patch } } : d));
  updateCatPages(client, (d) => (d.bodega.id === id ? { ...d, bodega: { ...d.bodega, ...patch } } : d));
  patchSearchItem(client, 'bodegas', id, () => patch);
}

function patchTarget(
  client: QueryClient,
  type: TargetType,
  id: number,
  patch: Partial<CatSummary & BodegaSummary>,
) {
  if (type === 'cat') patchCat(client, id, patch);
  else patchBodega(client, id, patch);
}

export function applyCatUpdated(client: QueryClient, { id, ...patch }: LiveData['cat.updated']): void {
  patchCat(client, id, patch);
}

export function applyCatDeleted(client: QueryClient, { id, bodega_id }: LiveData['cat.deleted']): void {
  updateCatPages(client, (data) => (data.cat.id === id ? null : data));
  updateBodegaPages(client, (data) => {
    const { bodega, cats } = data;
    if (!cats.some((c) => c.id === id)) return data;
    const count = Math.max(0, bodega.cat_count - 1);
    return { bodega: { ...bodega, cat_count: count }, cats: cats.filter((c) => c.id !== id) };
  });
  removeFromSearches(client, 'cats', id);
  patchSearchItem(client, 'bodegas', bodega_id, (b) => ({ cat_count: Math.max(0, b.cat_count - 1) }));
}

export function applyBodegaUpdated(client: QueryClient, { id, ...patch }: LiveData['bodega.updated']): void {
  patchBodega(client, id, patch);
  // A cat shows its bodega's name and address as its own.
  const named = (cat: CatSummary) => ({
    bodega_name: patch.name ?? cat.bodega_name,
    address: patch.address ?? cat.address,
  });
  updateCatPages(client, (d) => (d.bodega.id === id ? { ...d, cat: { ...d.cat, ...named(d.cat) } } : d));
  updateSearches(client, 'cats', (page) => {
    if (!page.items.some((cat) => cat.bodega_id === id)) return page;
    return {
      ...page,
      items: page.items.map((cat) => (cat.bodega_id === id ? { ...cat, ...named(cat) } : cat)),
    };
  });
}

export function applyBodegaDeleted(client: QueryClient, { id }: LiveData['bodega.deleted']): void {
  updateBodegaPages(client, (data) => (data.bodega.id === id ? null : data));
  updateCatPages(client, (data) => (data.bodega.id === id ? null : data));
  removeFromSearches(client, 'bodegas', id);
}

export function applyReviewPosted(client: QueryClient, data: LiveData['review.posted']): void {
  const { target_type, target_id, ...review } = data;
  addReview(client, target_type, target_id, review);
}

export function applyRatingUpdated(client: QueryClient, data: LiveData['rating.updated']): void {
  const { target_type, target_id, rating, review_count } = data;
  patchTarget(client, target_type, target_id, { rating, review_count });
}

/** A photo finished processing, became primary or was deleted: its target's page and cards follow. */
export function applyPhotoEvent(client: QueryClient, message: PhotoEvent): void {
  const { target_type, target_id, primary_photo, primary_thumb } = message.data;
  if (message.type === 'photo.ready') photoAdded(client, target_type, target_id, message.data);
  else if (message.type === 'photo.primary')
    photoMadePrimary(client, target_type, target_id, message.data.id);
  else photoRemoved(client, target_type, target_id, message.data.id);
  patchTarget(client, target_type, target_id, { primary_photo, primary_thumb });
}

/** The reads a `reset` (the server could not replay what this client missed) fetches again. */
/**
 * A moderator hid or restored something. A hidden cat or bodega leaves every listed search at
 * once (the map draws from them); then every read that may show it is read again, since who still
 * sees hidden content (its creator, moderators) is the server's to say. Moderation is rare, so
 * the reads cost little.
 */
export function applyModeration(
  client: QueryClient,
  message: LiveEvent<'content.hidden' | 'content.restored'>,
): void {
  const { target_type, target_id } = message.data;
  if (message.type === 'content.hidden') {
    if (target_type === 'cat') removeFromSearches(client, 'cats', target_id);
    if (target_type === 'bodega') removeFromSearches(client, 'bodegas', target_id);
  }
  for (const queryKey of [
    ...LIVE_READS,
    queryKeys.saved('cats'),
    queryKeys.saved('bodegas'),
    queryKeys.recentlyViewed,
  ])
    void client.invalidateQueries({ queryKey });
}

const LIVE_READS = [queryKeys.cats, queryKeys.bodegas, queryKeys.searches, queryKeys.allReviews];

/** Applies one live message to the cache. */
export function applyLiveMessage(client: QueryClient, message: LiveMessage): void {
  switch (message.type) {
    case 'reset':
      for (const queryKey of LIVE_READS) void client.invalidateQueries({ queryKey });
      return;
    case 'cat.added':
      return applyCatAdded(client, message.data);
    case 'cat.updated':
      return applyCatUpdated(client, message.data);
    case 'cat.deleted':
      return applyCatDeleted(client, message.data);
    case 'bodega.added':
      // No cached read lists a bodega that did not exist (the search map collects them itself).
      return;
    case 'bodega.updated':
      return applyBodegaUpdated(client, message.data);
    case 'bodega.deleted':
      return applyBodegaDeleted(client, message.data);
    case 'review.posted':
      return applyReviewPosted(client, message.data);
    case 'rating.updated':
      return applyRatingUpdated(client, message.data);
    case 'photo.ready':
    case 'photo.primary':
    case 'photo.deleted':
      return applyPhotoEvent(client, message);
    case 'content.hidden':
    case 'content.restored':
      return applyModeration(client, message);
    default: {
      const unknown: never = message;
      return unknown;
    }
  }
}
