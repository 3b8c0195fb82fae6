// The result list as the screen holds it, and how live events change it in place.
import type { BodegaSummary, CatSummary } from '../../../lib/catalogue.ts';
import type { LiveMessage } from '../../live/types.ts';

type Counts = { total: number; totalExact: boolean; page: number; pages: number };

export type SearchResults =
  ({ kind: 'cats'; items: CatSummary[] } & Counts) | ({ kind: 'bodegas'; items: BodegaSummary[] } & Counts);

/** The result count as the heading shows it: "1,234", or "about 31,000" for an estimate. */
export function resultCount(total: number, exact: boolean): string {
  const shown = total.toLocaleString('en-US');
  return exact ? shown : `about ${shown}`;
}

function patchCats(results: Extract<SearchResults, { kind: 'cats' }>, message: LiveMessage): SearchResults {
  const update = (id: number, patch: Partial<CatSummary>): SearchResults => {
    if (!results.items.some((cat) => cat.id === id)) return results;
    return { ...results, items: results.items.map((cat) => (cat.id === id ? { ...cat, ...patch } : cat)) };
  };
  switch (message.type) {
    case 'cat.updated': {
      const { id, ...patch } = message.data;
      return update(id, patch);
    }
    case 'cat.deleted':
      if (!results.items.some((cat) => cat.id === message.data.id)) return results;
      return {
        ...results,
        items: results.items.filter((cat) => cat.id !== message.data.id),
        total: Math.max(0, results.total - 1),
      };
    case 'rating.updated':
      if (message.data.target_type !== 'cat') return results;
      return update(message.data.target_id, {
        rating: message.data.rating,
        review_count: message.data.review_count,
      });
    case 'photo.ready':
    case 'photo.primary':
    case 'photo.deleted': {
      const { target_type, target_id, primary_photo, primary_thumb } = message.data;
      if (target_type !== 'cat') return results;
      return update(target_id, { primary_photo, primary_thumb });
    }
    case 'bodega.updated': {
      const { id, name, address } = message.data;
      if (!results.items.some((cat) => cat.bodega_id === id)) return results;
      return {
        ...results,
        items: results.items.map((cat) =>
          cat.bodega_id === id
            ? { ...cat, bodega_name: name ?? cat.bodega_name, address: address ?? cat.address }
            : cat,
        ),
      };
    }
    default:
      return results;
  }
}

function patchBodegas(
  results: Extract<SearchResults, { kind: 'bodegas' }>,
  message: LiveMessage,
): SearchResults {
  const update = (id: number, patch: (b: BodegaSummary) => Partial<BodegaSummary>): SearchResults => {
    if (!results.items.some((bodega) => bodega.id === id)) return results;
    return {
      ...results,
      items: results.items.map((bodega) => (bodega.id === id ? { ...bodega, ...patch(bodega) } : bodega)),
    };
  };
  switch (message.type) {
    case 'bodega.updated': {
      const { id, ...patch } = message.data;
      return update(id, () => patch);
    }
    case 'bodega.deleted':
      if (!results.items.some((bodega) => bodega.id === message.data.id)) return results;
      return {
        ...results,
        items: results.items.filter((bodega) => bodega.id !== message.data.id),
        total: Math.max(0, results.total - 1),
      };
    case 'cat.added':
      return update(message.data.bodega_id, (b) => ({ cat_count: b.cat_count + 1 }));
    case 'cat.deleted':
      return update(message.data.bodega_id, (b) => ({ cat_count: Math.max(0, b.cat_count - 1) }));
    case 'rating.updated':
      if (message.data.target_type !== 'bodega') return results;
      return update(message.data.target_id, () => ({
        rating: message.data.rating,
        review_count: message.data.review_count,
      }));
    case 'photo.ready':
    case 'photo.primary':
    case 'photo.deleted': {
      const { target_type, target_id, primary_photo, primary_thumb } = message.data;
      if (target_type !== 'bodega') return results;
      return update(target_id, () => ({ primary_photo, primary_thumb }));
    }
    default:
      return results;
  }
}

/** The results with one live event applied (same object back when nothing on screen changed). */
export function applyLiveMessage(results: SearchResults, message: LiveMessage): SearchResults {
  return results.kind === 'cats' ? patchCats(results, message) : patchBodegas(results, message);
}
