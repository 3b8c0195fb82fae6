// What the other features use of the photos: a page's list of them, and its 'Photos' card.
export { PhotosSection } from './components/PhotosSection.tsx';
export { photoListOf, type PhotoList } from './photo-list.ts';
