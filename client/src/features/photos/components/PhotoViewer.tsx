import { useEffect, useRef } from 'react';
import { Icon } from '../../../components/Icon.tsx';
import { ItemPhoto } from '../../../components/ItemPhoto.tsx';
import type { Photo } from '../../../lib/catalogue.ts';

type PhotoViewerProps = { photo: Photo; itemName: string; onClose(): void };

/** The large variant of one photo in a modal dialog (Escape or the close button dismisses it). */
export function PhotoViewer({ photo, itemName, onClose }: PhotoViewerProps) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open && typeof element.showModal === 'function') element.showModal();
  }, []);

  const label = photo.caption || `Photo of ${itemName}`;
  return (
    <dialog
      ref={dialog}
      className="photo-viewer"
      aria-label={label}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="photo-viewer__frame">
        <ItemPhoto src={photo.url} alt={label} width={photo.width} height={photo.height} loading="eager" />
        {photo.caption && <p className="photo-viewer__caption">{photo.caption}</p>}
        <button
          type="button"
          className="photo-viewer__close"
          onClick={onClose}
          aria-label="Close photo"
          autoFocus
        >
          <Icon name="close" />
        </button>
      </div>
    </dialog>
  );
}
