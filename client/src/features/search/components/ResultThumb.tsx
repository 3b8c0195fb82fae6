import { useState } from 'react';
import { Icon } from '../../../components/Icon.tsx';
import { assetUrl } from '../../../lib/api.ts';
import './result-card.css';

/** The primary photo, or an icon when there is none or it fails to load. */
export function ResultThumb({ src, type }: { src: string | null; type: 'cat' | 'bodega' }) {
  const [failed, setFailed] = useState(false);
  const url = assetUrl(src);
  if (!url || failed) {
    return (
      <span className={`result-card__thumb result-card__thumb--${type}`} aria-hidden="true">
        <Icon name={type === 'cat' ? 'cat' : 'store'} size={28} />
      </span>
    );
  }
  return (
    <img
      className="result-card__thumb"
      src={url}
      alt=""
      loading="lazy"
      decoding="async"
      width={72}
      height={72}
      onError={() => setFailed(true)}
    />
  );
}
