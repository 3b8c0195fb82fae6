import { api } from '../../../lib/api.ts';
import { targetPath, type TargetType } from '../../../lib/catalogue.ts';

export async function deletePhoto(type: TargetType, targetId: number, photoId: number): Promise<void> {
  await api.delete(`/api/photos/${targetPath(type)}/${targetId}/photos/${photoId}`);
}
