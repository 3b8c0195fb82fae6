// How a page's list of photos changes: an upload, a photo finishing processing, a new primary, a
// deletion. Pure, so the page and live messages apply the same rules in any order.
import type { Photo } from '../../lib/catalogue.ts';

/**
 * Adds a photo or replaces the one with its id; a primary photo makes every other one not primary.
 * A finished photo is never set back to processing (the upload's answer can arrive after the
 * live message that the photo is ready).
 */
export function upsertPhoto(photos: readonly Photo[], photo: Photo): Photo[] {
  const known = photos.find((p) => p.id === photo.id);
  if (known && known.status !== 'processing' && photo.status === 'processing') return [...photos];
  const next = known ? photos.map((p) => (p.id === photo.id ? photo : p)) : [...photos, photo];
  return photo.is_primary ? markPrimary(next, photo.id) : next;
}

export function markPrimary(photos: readonly Photo[], photoId: number): Photo[] {
  if (!photos.some((p) => p.id === photoId)) return [...photos];
  return photos.map((p) =>
    p.is_primary === (p.id === photoId) ? p : { ...p, is_primary: p.id === photoId },
  );
}

/**
 * Removes a photo. When it was the primary one, the oldest photo that is not failed takes its
 * place, as the server does (no separate message announces that promotion).
 */
export function removePhoto(photos: readonly Photo[], photoId: number): Photo[] {
  const removed = photos.find((p) => p.id === photoId);
  const rest = photos.filter((p) => p.id !== photoId);
  if (!removed?.is_primary || rest.some((p) => p.is_primary)) return rest;
  const next = rest
    .filter((p) => p.status !== 'failed')
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id)[0];
  return next ? markPrimary(rest, next.id) : rest;
}

/** The photo the page leads with: the primary one, once it can be shown. */
export function primaryPhotoOf(photos: readonly Photo[]): Photo | null {
  return photos.find((p) => p.is_primary && p.status === 'ready' && p.url) ?? null;
}

/**
 * A page's photos as its cached item holds them (the live stream and the page's own uploads,
 * primary choices and deletions change them there, api/cache.ts), and the one it leads with.
 */
export type PhotoList = { photos: readonly Photo[]; primary: Photo | null };

export function photoListOf(photos: readonly Photo[]): PhotoList {
  return { photos, primary: primaryPhotoOf(photos) };
}

/** Who is looking: the signed-in user (with their role), or nobody. */
type Viewer = { id: number; role?: 'member' | 'moderator' } | null | undefined;

/** May this user delete the photo? The server allows its uploader and the item's creator. */
export function canDeletePhoto(user: Viewer, photo: Photo, itemCreatorId: number | null): boolean {
  if (!user) return false;
  return photo.uploaded_by === user.id || itemCreatorId === user.id;
}

/**
 * May this user choose the item's primary photo? The server allows the item's creator and
 * moderators, not a photo's uploader (who could otherwise replace the creator's choice with theirs).
 */
export function canChoosePrimary(user: Viewer, itemCreatorId: number | null): boolean {
  if (!user) return false;
  return user.role === 'moderator' || (itemCreatorId !== null && itemCreatorId === user.id);
}
