// How a cat's or bodega's cached page changes when its photos do, in one place: the uploads,
// primary choices and deletions made on the page, and the same changes heard from the live stream
// (features/live applies them through ../live.ts), all with the rules of photo-list.ts.
import type { QueryClient } from '@tanstack/react-query';
import type { BodegaResponse, CatResponse, Photo, TargetType } from '../../../lib/catalogue.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { markPrimary, removePhoto, upsertPhoto } from '../photo-list.ts';

/** Changes the photos on a cat's or bodega's cached page. */
function updateItemPhotos(
  client: QueryClient,
  type: TargetType,
  id: number,
  update: (photos: readonly Photo[]) => Photo[],
): void {
  if (type === 'cat') {
    client.setQueryData<CatResponse | null>(
      queryKeys.cat(id),
      (d) => d && { ...d, cat: { ...d.cat, photos: update(d.cat.photos) } },
    );
    return;
  }
  client.setQueryData<BodegaResponse | null>(
    queryKeys.bodega(id),
    (d) => d && { ...d, bodega: { ...d.bodega, photos: update(d.bodega.photos) } },
  );
}

/** A photo uploaded, or one that finished processing. */
export function photoAdded(client: QueryClient, type: TargetType, id: number, photo: Photo): void {
  updateItemPhotos(client, type, id, (photos) => upsertPhoto(photos, photo));
}

export function photoMadePrimary(client: QueryClient, type: TargetType, id: number, photoId: number): void {
  updateItemPhotos(client, type, id, (photos) => markPrimary(photos, photoId));
}

export function photoRemoved(client: QueryClient, type: TargetType, id: number, photoId: number): void {
  updateItemPhotos(client, type, id, (photos) => removePhoto(photos, photoId));
}
