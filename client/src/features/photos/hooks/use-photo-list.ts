// A page's photos as its cached item holds them: the live stream changes them there (photos
// finishing processing, becoming primary or being deleted anywhere), and so do the uploads, primary
// choices and deletions made on this page, with the same rules (api/cache.ts).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Photo, TargetType } from '../../../lib/catalogue.ts';
import { photoAdded, photoMadePrimary, photoRemoved } from '../api/cache.ts';
import { primaryPhotoOf } from '../photo-list.ts';

export type PhotoList = {
  photos: readonly Photo[];
  primary: Photo | null;
  added(photo: Photo): void;
  primarySet(photoId: number): void;
  deleted(photoId: number): void;
};

export function usePhotoList(photos: readonly Photo[], type: TargetType, targetId: number): PhotoList {
  const client = useQueryClient();
  const added = useCallback(
    (photo: Photo) => photoAdded(client, type, targetId, photo),
    [client, type, targetId],
  );
  const primarySet = useCallback(
    (id: number) => photoMadePrimary(client, type, targetId, id),
    [client, type, targetId],
  );
  const deleted = useCallback(
    (id: number) => photoRemoved(client, type, targetId, id),
    [client, type, targetId],
  );
  return { photos, primary: primaryPhotoOf(photos), added, primarySet, deleted };
}
