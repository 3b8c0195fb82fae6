// A page's photos kept current: uploads made here, and photos finishing processing, becoming primary
// or being deleted anywhere (live stream).
import { useCallback, useState } from 'react';
import type { Photo, TargetType } from '../../../lib/catalogue.ts';
import { useLiveEvents } from '../../live/use-live-events.ts';
import { markPrimary, primaryPhotoOf, removePhoto, upsertPhoto } from '../photo-list.ts';

export type PhotoList = {
  photos: Photo[];
  primary: Photo | null;
  added(photo: Photo): void;
  primarySet(photoId: number): void;
  deleted(photoId: number): void;
};

export function usePhotoList(loaded: readonly Photo[], type: TargetType, targetId: number): PhotoList {
  const [source, setSource] = useState(loaded);
  const [photos, setPhotos] = useState<Photo[]>([...loaded]);
  // A fresh load of the page (another id, or a refetch after a reset) replaces what we had.
  if (source !== loaded) {
    setSource(loaded);
    setPhotos([...loaded]);
  }

  useLiveEvents((message) => {
    if (message.type === 'reset') return;
    if (!message.type.startsWith('photo.')) return;
    const data = message.data as { target_type: TargetType; target_id: number; id: number };
    if (data.target_type !== type || data.target_id !== targetId) return;
    if (message.type === 'photo.ready') setPhotos((list) => upsertPhoto(list, message.data));
    if (message.type === 'photo.primary') setPhotos((list) => markPrimary(list, message.data.id));
    if (message.type === 'photo.deleted') setPhotos((list) => removePhoto(list, message.data.id));
  });

  const added = useCallback((photo: Photo) => setPhotos((list) => upsertPhoto(list, photo)), []);
  const primarySet = useCallback((id: number) => setPhotos((list) => markPrimary(list, id)), []);
  const deleted = useCallback((id: number) => setPhotos((list) => removePhoto(list, id)), []);
  return { photos, primary: primaryPhotoOf(photos), added, primarySet, deleted };
}
