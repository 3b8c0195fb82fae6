// Every endpoint of the HTTP contract (API.md), with what a fuzzer needs to aim at it: where its ids
// go, who may call it, a valid body to mutate and the query parameters it reads.
import type { World } from '../../helpers/world.ts';

export type Access = 'public' | 'optional' | 'signed-in';

export type Endpoint = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** `:id` and `:photoId` are filled from the world or replaced with junk. */
  path: string;
  access: Access;
  body?: 'json' | 'multipart';
  /** A body the endpoint accepts (before the fuzzer spoils it). */
  validBody?: (w: World) => Record<string, unknown>;
  query?: string[];
};

const PAGE = ['page', 'per_page'];
const CAT_FILTERS = ['breed', 'personality', 'is_friendly', 'min_rating', 'max_rating'];
const BODEGA_FILTERS = ['min_cats', 'max_cats', 'verified_only', 'min_rating', 'max_rating'];

const catBody = () => ({
  name: 'Mittens',
  bodega_name: 'Fuzz Deli',
  address: '1 Fuzz Street, New York, NY',
  description: 'Sleeps on the bread',
  age: '3',
  breed: 'Tabby',
  sex: 'Female',
  personality: 'Lazy',
  color: 'Orange',
  weight: '5kg',
  is_friendly: true,
  latitude: 40.7,
  longitude: -73.9,
});

const catEdit = () => ({
  name: 'Mittens',
  description: 'Sleeps on the bread',
  age: '3',
  breed: 'Tabby',
  sex: 'Male',
  personality: 'Lazy',
  color: 'Orange',
  weight: '5kg',
  is_friendly: false,
});

const bodegaBody = () => ({
  name: 'Fuzz Deli',
  address: '2 Fuzz Street, New York, NY',
  description: 'Open late',
  phone: '555-0100',
  hours: '24/7',
  latitude: 40.71,
  longitude: -73.91,
});

export const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/api/health', access: 'public' },
  { method: 'GET', path: '/api/ready', access: 'public' },
  { method: 'GET', path: '/api/config', access: 'public' },

  {
    method: 'POST',
    path: '/api/auth/register',
    access: 'public',
    body: 'json',
    validBody: () => ({ username: 'fuzzy_cat', email: 'fuzzy@example.test', password: 'correct horse' }),
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    access: 'public',
    body: 'json',
    validBody: () => ({ username: 'fuzzy_cat', password: 'correct horse' }),
  },
  { method: 'GET', path: '/api/auth/profile', access: 'signed-in' },

  { method: 'GET', path: '/api/cats/:id', access: 'optional' },
  { method: 'POST', path: '/api/cats', access: 'signed-in', body: 'json', validBody: catBody },
  { method: 'PUT', path: '/api/cats/:id', access: 'signed-in', body: 'json', validBody: catEdit },
  { method: 'DELETE', path: '/api/cats/:id', access: 'signed-in' },
  { method: 'POST', path: '/api/cats/:id/save', access: 'signed-in' },
  { method: 'DELETE', path: '/api/cats/:id/save', access: 'signed-in' },

  { method: 'GET', path: '/api/bodegas/:id', access: 'optional' },
  { method: 'POST', path: '/api/bodegas', access: 'signed-in', body: 'json', validBody: bodegaBody },
  { method: 'PUT', path: '/api/bodegas/:id', access: 'signed-in', body: 'json', validBody: bodegaBody },
  { method: 'DELETE', path: '/api/bodegas/:id', access: 'signed-in' },
  { method: 'POST', path: '/api/bodegas/:id/save', access: 'signed-in' },
  { method: 'DELETE', path: '/api/bodegas/:id/save', access: 'signed-in' },

  { method: 'GET', path: '/api/search/filters', access: 'public' },
  { method: 'GET', path: '/api/search/cats', access: 'public', query: ['q', ...CAT_FILTERS, ...PAGE] },
  { method: 'GET', path: '/api/search/bodegas', access: 'public', query: ['q', ...BODEGA_FILTERS, ...PAGE] },
  {
    method: 'GET',
    path: '/api/search/nearby',
    access: 'public',
    query: [
      'lat',
      'lng',
      'radius',
      'type',
      'q',
      ...CAT_FILTERS,
      'min_cats',
      'max_cats',
      'verified_only',
      ...PAGE,
    ],
  },

  { method: 'GET', path: '/api/reviews/cat/:id', access: 'public', query: PAGE },
  { method: 'GET', path: '/api/reviews/bodega/:id', access: 'public', query: PAGE },
  {
    method: 'POST',
    path: '/api/reviews',
    access: 'signed-in',
    body: 'json',
    validBody: (w) => ({ cat_id: w.catId, rating: 5, comment: 'A fine cat' }),
  },

  { method: 'GET', path: '/api/users/savedcats', access: 'signed-in', query: PAGE },
  { method: 'GET', path: '/api/users/savedbodegas', access: 'signed-in', query: PAGE },
  { method: 'GET', path: '/api/users/recently-viewed', access: 'signed-in', query: PAGE },
  { method: 'DELETE', path: '/api/users/clear-recently-viewed', access: 'signed-in' },

  { method: 'POST', path: '/api/photos/cats/:id/photos', access: 'signed-in', body: 'multipart' },
  { method: 'POST', path: '/api/photos/bodegas/:id/photos', access: 'signed-in', body: 'multipart' },
  { method: 'PUT', path: '/api/photos/cats/:id/photos/:photoId/primary', access: 'signed-in' },
  { method: 'PUT', path: '/api/photos/bodegas/:id/photos/:photoId/primary', access: 'signed-in' },
  { method: 'DELETE', path: '/api/photos/cats/:id/photos/:photoId', access: 'signed-in' },
  { method: 'DELETE', path: '/api/photos/bodegas/:id/photos/:photoId', access: 'signed-in' },

  { method: 'GET', path: '/api/stream', access: 'public', query: ['after'] },
];

export const JSON_BODY_ENDPOINTS = ENDPOINTS.filter((e) => e.body === 'json');
export const QUERY_ENDPOINTS = ENDPOINTS.filter((e) => e.query);
export const ID_ENDPOINTS = ENDPOINTS.filter((e) => e.path.includes(':id'));

export function describeEndpoint(e: Endpoint): string {
  return `${e.method} ${e.path}`;
}

/** The endpoint's URL with the world's real ids, or the given segments in their place. */
export function urlOf(e: Endpoint, w: World, ids: { id?: string; photoId?: string } = {}): string {
  const ofBodega = /\/bodegas?\//.test(e.path);
  return e.path
    .replace(':id', ids.id ?? String(ofBodega ? w.bodegaId : w.catId))
    .replace(':photoId', ids.photoId ?? String(ofBodega ? w.bodegaPhotoId : w.catPhotoId));
}
