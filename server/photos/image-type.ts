// Decides an upload's image type from its first bytes; the name and declared type are never trusted.
export type ImageType = { mime: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'; extension: string };

/** How many leading bytes detectImageType needs. */
export const SIGNATURE_BYTES = 12;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function detectImageType(head: Buffer): ImageType | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff)
    return { mime: 'image/jpeg', extension: 'jpg' };
  if (head.subarray(0, 8).equals(PNG)) return { mime: 'image/png', extension: 'png' };
  const ascii = head.subarray(0, SIGNATURE_BYTES).toString('latin1');
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a'))
    return { mime: 'image/gif', extension: 'gif' };
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP')
    return { mime: 'image/webp', extension: 'webp' };
  return null;
}
