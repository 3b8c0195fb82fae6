import { useState } from 'react';
import { Icon } from './Icon.tsx';
import './item-photo.css';

type ItemPhotoProps = {
  src: string | null | undefined;
  alt: string;
  /** Intrinsic size when known: the browser reserves the space before the image arrives. */
  width?: number | null;
  height?: number | null;
  className?: string;
  /** What the placeholder shows (a cat, or a shop). */
  kind?: 'cat' | 'store';
  loading?: 'lazy' | 'eager';
};

/** A cat or shop photo; the placeholder takes its place when there is none or it fails to load. */
export function ItemPhoto({
  src,
  alt,
  width,
  height,
  className,
  kind = 'cat',
  loading = 'lazy',
}: ItemPhotoProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const classes = className ? `item-photo ${className}` : 'item-photo';
  if (!src || failedSrc === src) {
    return (
      <div
        className={`${classes} item-photo--placeholder`}
        role="img"
        aria-label={alt ? `${alt} (no photo)` : 'No photo'}
      >
        <Icon name={kind} size={48} />
      </div>
    );
  }
  return (
    <img
      className={classes}
      src={src}
      alt={alt}
      width={width ?? undefined}
      height={height ?? undefined}
      loading={loading}
      decoding="async"
      onError={() => setFailedSrc(src)}
    />
  );
}
