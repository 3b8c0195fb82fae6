import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { targetPath, type Photo, type TargetType } from '../../../lib/catalogue.ts';
import { photoMadePrimary } from './cache.ts';
import type { PhotoAnswer } from '../../../../../contract/catalogue.ts';

export type PhotoRef = { type: TargetType; targetId: number; photoId: number };

export async function setPrimaryPhoto(type: TargetType, targetId: number, photoId: number): Promise<Photo> {
  const { photo } = await api.put<PhotoAnswer>(
    `/api/photos/${targetPath(type)}/${targetId}/photos/${photoId}/primary`,
  );
  return photo;
}

/** Makes a photo the item's primary one; the item's cached page follows once the server agrees. */
export const setPrimaryPhotoMutation = mutationOptions({
  mutationFn: ({ type, targetId, photoId }: PhotoRef) => setPrimaryPhoto(type, targetId, photoId),
  onSuccess: (_photo, { type, targetId, photoId }, _context, { client }) =>
    photoMadePrimary(client, type, targetId, photoId),
});

export function useSetPrimaryPhotoMutation() {
  return useMutation(setPrimaryPhotoMutation);
}
