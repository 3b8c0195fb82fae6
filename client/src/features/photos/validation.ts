// Checks a chosen photo before it is sent, with the messages the server would give, so a wrong
// file is refused at once instead of after a slow upload.
export const MAX_PHOTO_BYTES = 5242880;
export const INVALID_PHOTO_TYPE = 'Invalid file type. Please upload a JPEG, PNG, GIF, or WebP image.';
export const PHOTO_TOO_LARGE = 'File too large. Please upload an image smaller than 5MB.';

export const ALLOWED_PHOTO_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/gif', 'image/webp'];
const ALLOWED_EXTENSIONS = ['jpeg', 'jpg', 'png', 'gif', 'webp'];

/** The `accept` attribute of photo inputs. */
export const PHOTO_ACCEPT = 'image/jpeg,image/png,image/gif,image/webp';

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function hasAllowedType(file: File): boolean {
  const type = file.type.toLowerCase();
  // Some systems give no type for a file; its name is then the only hint before the server looks.
  if (!type) return ALLOWED_EXTENSIONS.includes(extensionOf(file.name));
  return ALLOWED_PHOTO_TYPES.includes(type);
}

/** The message to show for a file that must not be sent, or null when it may be uploaded. */
export function photoFileProblem(file: File): string | null {
  if (!hasAllowedType(file)) return INVALID_PHOTO_TYPE;
  if (file.size > MAX_PHOTO_BYTES) return PHOTO_TOO_LARGE;
  return null;
}
