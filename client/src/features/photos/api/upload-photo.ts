import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { targetPath, type Photo, type TargetType } from '../../../lib/catalogue.ts';
import { photoAdded } from './cache.ts';
import type { PhotoAnswer } from '../../../../../contract/catalogue.ts';

export type PhotoUpload = { file: File; caption: string };

export async function uploadPhoto(type: TargetType, targetId: number, upload: PhotoUpload): Promise<Photo> {
  const form = new FormData();
  form.append('caption', upload.caption.trim());
  form.append('photo', upload.file, upload.file.name);
  const { photo } = await api.upload<PhotoAnswer>(`/api/photos/${targetPath(type)}/${targetId}/photos`, form);
  return photo;
}

/** Uploads a photo; it joins the item's cached page (still processing) once the server has it. */
export const uploadPhotoMutation = mutationOptions({
  mutationFn: ({ type, targetId, upload }: { type: TargetType; targetId: number; upload: PhotoUpload }) =>
    uploadPhoto(type, targetId, upload),
  onSuccess: (photo, { type, targetId }, _context, { client }) => photoAdded(client, type, targetId, photo),
});

export function useUploadPhotoMutation() {
  return useMutation(uploadPhotoMutation);
}
