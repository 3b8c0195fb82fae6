// Public URLs of processed photo variants. Originals are never served.
import type { TargetType } from '../db/schema.ts';

export type PhotoVariant = 'thumb' | 'large';
export const VARIANT_SIZES: Record<PhotoVariant, number> = { thumb: 320, large: 1280 };

export function variantFileName(filename: string, variant: PhotoVariant): string {
  return `${filename}_${variant}.webp`;
}

export function targetFolder(type: TargetType): 'cats' | 'bodegas' {
  return type === 'cat' ? 'cats' : 'bodegas';
}

/** `/uploads/cats/<filename>_large.webp` */
export function photoUrl(type: TargetType, filename: string, variant: PhotoVariant): string {
  return `/uploads/${targetFolder(type)}/${variantFileName(filename, variant)}`;
}
