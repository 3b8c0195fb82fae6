import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { IconFrame } from '../../../components/Icon.tsx';
import type { TargetType } from '../../../lib/catalogue.ts';
import { ITEM_WORDS } from '../../../components/item-kinds.ts';
import { shareLink, shareUrl } from '../share.ts';
import './share-button.css';

type ShareButtonProps = { kind: TargetType; item: { id: number; name: string } };

/** Shares the item's link through the device's share sheet, or copies it (see share.ts). */
export function ShareButton({ kind, item }: ShareButtonProps) {
  const [busy, setBusy] = useState(false);
  const label = `Share ${ITEM_WORDS[kind].title}`;

  async function share() {
    setBusy(true);
    const url = shareUrl(kind, item.id);
    try {
      const outcome = await shareLink(item.name, url);
      if (outcome === 'copied') toast.success('Link copied', { id: 'share-link' });
      if (outcome === 'failed') toast.error(`Could not copy the link: ${url}`, { id: 'share-link' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <button
      type="button"
      className="icon-button share-button"
      onClick={() => void share()}
      disabled={busy}
      aria-label={label}
      title={label}
    >
      <IconFrame size={20}>
        <circle cx="18" cy="5" r="3" />
        <circle cx="6" cy="12" r="3" />
        <circle cx="18" cy="19" r="3" />
        <path d="m8.59 13.51 6.83 3.98M15.41 6.51l-6.82 3.98" />
      </IconFrame>
    </button>
  );
}
