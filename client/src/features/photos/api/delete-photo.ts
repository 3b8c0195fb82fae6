import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { targetPath, type TargetType } from '../../../lib/catalogue.ts';
import { photoRemoved } from './cache.ts';
import type { PhotoRef } from './set-primary-photo.ts';

export async function deletePhoto(type: TargetType, targetId: number, photoId: number): Promise<void> {
  await api.delete(`/api/photos/${targetPath(type)}/${targetId}/photos/${photoId}`);
}

/** Deletes a photo; it leaves the item's cached page (another takes its place as primary). */
export const deletePhotoMutation = mutationOptions({
  mutationFn: ({ type, targetId, photoId }: PhotoRef) => deletePhoto(type, targetId, photoId),
  onSuccess: (_answer, { type, targetId, photoId }, _context, { client }) =>
    photoRemoved(client, type, targetId, photoId),
});

export function useDeletePhotoMutation() {
  return useMutation(deletePhotoMutation);
}
