// Public URLs of processed photo variants, the one place they are made. Originals are never served.
// A variant's URL is this server's /uploads/<key> (serve.ts streams it from storage), or, with the
// photos in a bucket and S3_PUBLIC_URL set, <S3_PUBLIC_URL>/<key>, fetched from there directly.
import type { TargetType } from '../db/schema.ts';

/**
 * Where browsers fetch variants from, for the whole process (like its data key): set once, from the
 * configuration, as the photo storage is made (services.ts). Null: this server's /uploads.
 */
let publicBaseUrl: string | null = null;

export function usePhotoBaseUrl(url: string | null): void {
  publicBaseUrl = url === null ? null : url.replace(/\/+$/, '');
}

export type PhotoVariant = 'thumb' | 'large';
export const VARIANT_SIZES: Record<PhotoVariant, number> = { thumb: 320, large: 1280 };

export function variantFileName(filename: string, variant: PhotoVariant): string {
  return `${filename}_${variant}.webp`;
}

export function targetFolder(type: TargetType): 'cats' | 'bodegas' {
  return type === 'cat' ? 'cats' : 'bodegas';
}

/** `/uploads/cats/<filename>_large.webp`, or `<S3_PUBLIC_URL>/cats/<filename>_large.webp` */
export function photoUrl(type: TargetType, filename: string, variant: PhotoVariant): string {
  const key = `${targetFolder(type)}/${variantFileName(filename, variant)}`;
  return `${publicBaseUrl ?? '/uploads'}/${key}`;
}
