// What the photos domain lets the other domains use (its declared interface; see
// docs/architecture.md): a variant's public URL and its key in photo storage, the Photo shape and a
// target's photos.
export { photoUrl } from './urls.ts';
export { listPhotos, toPhoto } from './read.ts';
export { variantKey } from './objects.ts';
