// What the live stream (features/live) applies to the photos on a cat's or bodega's cached page.
export { photoAdded, photoMadePrimary, photoRemoved } from './api/cache.ts';
