// Sharing a cat's or bodega's link: the device's share sheet where the browser has one (phones),
// else the link copied to the clipboard. The link is the server's share page (/c/{id}, /b/{id}),
// whose preview tags show the item's card in chats and posts and which sends people on to the app.
import type { TargetType } from '../../lib/catalogue.ts';

export function shareUrl(kind: TargetType, id: number, origin = window.location.origin): string {
  return `${origin}/${kind === 'cat' ? 'c' : 'b'}/${id}`;
}

/** How sharing ended: handed to the share sheet, copied, closed by the person, or neither possible. */
export type ShareOutcome = 'shared' | 'copied' | 'cancelled' | 'failed';

export async function shareLink(title: string, url: string): Promise<ShareOutcome> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url });
      return 'shared';
    } catch (error) {
      // Closing the sheet is a choice, not a failure; any other refusal falls back to copying.
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    return 'copied';
  } catch {
    return 'failed';
  }
}
