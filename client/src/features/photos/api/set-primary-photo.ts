import { api } from '../../../lib/api.ts';
import { targetPath, type Photo, type TargetType } from '../../../lib/catalogue.ts';

export async function setPrimaryPhoto(type: TargetType, targetId: number, photoId: number): Promise<Photo> {
  const { photo } = await api.put<{ photo: Photo }>(
    `/api/photos/${targetPath(type)}/${targetId}/photos/${photoId}/primary`,
  );
  return photo;
}
