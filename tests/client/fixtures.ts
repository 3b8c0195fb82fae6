// A bodega and its cat as the API sends them, for screen tests; each test file changes what it is about.
export const CREATOR = { id: 3, username: 'maria' };

/** Sunny Deli as lists and its cats' pages carry it. */
export const SUNNY_DELI = {
  id: 4,
  name: 'Sunny Deli',
  address: '1 Broadway, New York',
  latitude: 40.7,
  longitude: -74,
  description: 'Corner shop.',
  phone: '212-555-0100',
  hours: '24/7',
  cat_count: 1,
  rating: 4.5,
  review_count: 2,
  is_verified: true,
  primary_photo: null,
  primary_thumb: null,
  created_by: CREATOR.id,
  created_at: '2026-11-20T10:00:00.000Z',
};

/** Whiskers as lists and its bodega's page carry it. */
export const WHISKERS = {
  id: 12,
  name: 'Whiskers',
  bodega_id: 4,
  bodega_name: 'Sunny Deli',
  address: '1 Broadway, New York',
  latitude: 40.7,
  longitude: -74,
  description: 'Guards the bread.',
  age: '3 years',
  breed: 'Tabby',
  sex: 'Male',
  personality: 'Bossy',
  color: 'Orange',
  weight: '12 lbs',
  is_friendly: true,
  rating: 4,
  review_count: 1,
  primary_photo: null,
  primary_thumb: null,
  created_by: CREATOR.id,
  created_at: '2026-11-20T10:00:00.000Z',
};

/** What only an item's own page gets besides. */
export function detailOf<T extends object>(item: T, version: number) {
  return { ...item, creator_username: CREATOR.username, photos: [] as unknown[], version, saved: false };
}
