// A page's photos as its cached item holds them: the live stream changes them there (photos
// finishing processing, becoming primary or being deleted anywhere), and so do the uploads, primary
// choices and deletions made on this page, with the same rules (photo-list.ts).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Photo, TargetType } from '../../../lib/catalogue.ts';
import { updateItemPhotos } from '../../live/cache-updates.ts';
import { markPrimary, primaryPhotoOf, removePhoto, upsertPhoto } from '../photo-list.ts';

export type PhotoList = {
  photos: readonly Photo[];
  primary: Photo | null;
  added(photo: Photo): void;
  primarySet(photoId: number): void;
  deleted(photoId: number): void;
};

export function usePhotoList(photos: readonly Photo[], type: TargetType, targetId: number): PhotoList {
  const client = useQueryClient();
  const update = useCallback(
    (change: (list: readonly Photo[]) => Photo[]) => updateItemPhotos(client, type, targetId, change),
    [client, type, targetId],
  );
  const added = useCallback((photo: Photo) => update((list) => upsertPhoto(list, photo)), [update]);
  const primarySet = useCallback((id: number) => update((list) => markPrimary(list, id)), [update]);
  const deleted = useCallback((id: number) => update((list) => removePhoto(list, id)), [update]);
  return { photos, primary: primaryPhotoOf(photos), added, primarySet, deleted };
}
