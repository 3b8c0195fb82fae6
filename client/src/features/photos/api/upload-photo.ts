import { api } from '../../../lib/api.ts';
import { targetPath, type Photo, type TargetType } from '../../../lib/catalogue.ts';

export type PhotoUpload = { file: File; caption: string };

export async function uploadPhoto(type: TargetType, targetId: number, upload: PhotoUpload): Promise<Photo> {
  const form = new FormData();
  form.append('caption', upload.caption.trim());
  form.append('photo', upload.file, upload.file.name);
  const { photo } = await api.upload<{ photo: Photo }>(
    `/api/photos/${targetPath(type)}/${targetId}/photos`,
    form,
  );
  return photo;
}
