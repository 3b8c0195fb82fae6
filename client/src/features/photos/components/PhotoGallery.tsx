// The photos of a cat or shop: thumbnails (small variant) that open the large one, the control to
// make one primary for the item's creator and moderators, and to delete one for its uploader and
// the item's creator.
import '../photos.css';
import { useState, type ReactNode } from 'react';
import toast from 'react-hot-toast/headless';
import { ItemPhoto } from '../../../components/ItemPhoto.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { ToolIcon } from '../../../components/ToolIcon.tsx';
import { errorMessage } from '../../../lib/api.ts';
import type { Photo, TargetType } from '../../../lib/catalogue.ts';
import { useSession } from '../../auth/index.ts';
import { useDeletePhotoMutation } from '../api/delete-photo.ts';
import { useSetPrimaryPhotoMutation } from '../api/set-primary-photo.ts';
import { canChoosePrimary, canDeletePhoto } from '../photo-list.ts';
import { PhotoViewer } from './PhotoViewer.tsx';

export const DELETE_PHOTO_CONFIRMATION = 'Are you sure you want to delete this photo?';

type PhotoGalleryProps = {
  photos: readonly Photo[];
  targetType: TargetType;
  targetId: number;
  itemName: string;
  creatorId: number | null;
  /** Told once a photo became primary (the mutation has changed the cached page already). */
  onPrimary?(photoId: number): void;
  /** Told once a photo was deleted (likewise). */
  onDeleted?(photoId: number): void;
  photoAction?: (photo: Photo) => ReactNode;
};

export function PhotoGallery(props: PhotoGalleryProps) {
  const { photos, itemName } = props;
  const [viewing, setViewing] = useState<Photo | null>(null);
  if (photos.length === 0) return <p className="photo-gallery__empty">No photos yet.</p>;
  return (
    <>
      <ul className="photo-gallery" aria-label={`Photos of ${itemName}`}>
        {photos.map((photo) => (
          <PhotoTile key={photo.id} photo={photo} {...props} onView={() => setViewing(photo)} />
        ))}
      </ul>
      {viewing && <PhotoViewer photo={viewing} itemName={itemName} onClose={() => setViewing(null)} />}
    </>
  );
}

type PhotoTileProps = PhotoGalleryProps & { photo: Photo; onView(): void };

function PhotoTile({ photo, itemName, onView, photoAction, ...item }: PhotoTileProps) {
  const user = useSession((s) => s.user);
  const allowed = {
    primary: canChoosePrimary(user, item.creatorId),
    remove: canDeletePhoto(user, photo, item.creatorId),
  };
  const label = photo.caption || `Photo of ${itemName}`;
  return (
    <li className={photo.is_primary ? 'photo-tile photo-tile--primary' : 'photo-tile'}>
      {photo.status === 'ready' ? (
        <button type="button" className="photo-tile__open" onClick={onView} aria-label={`View ${label}`}>
          <ItemPhoto src={photo.thumb_url} alt={label} width={photo.width} height={photo.height} />
        </button>
      ) : (
        <PendingTile failed={photo.status === 'failed'} />
      )}
      {photo.is_primary && <span className="photo-tile__badge">Primary</span>}
      {photo.hidden && <p className="photo-tile__hidden">Hidden by moderators</p>}
      {photo.caption && <p className="photo-tile__caption">{photo.caption}</p>}
      {(allowed.primary || allowed.remove) && <PhotoActions photo={photo} allowed={allowed} {...item} />}
      {photoAction?.(photo)}
    </li>
  );
}

function PendingTile({ failed }: { failed: boolean }) {
  return (
    <div className="photo-tile__pending">
      {failed ? <span>Processing failed</span> : <Spinner size="small" label="Processing..." />}
    </div>
  );
}

type PhotoActionsProps = Omit<PhotoGalleryProps, 'photos' | 'itemName' | 'photoAction'> & {
  photo: Photo;
  /** Which of the two controls this user may use. */
  allowed: { primary: boolean; remove: boolean };
};

function PhotoActions({ photo, allowed, targetType, targetId, onPrimary, onDeleted }: PhotoActionsProps) {
  const choosePrimary = useSetPrimaryPhotoMutation();
  const removal = useDeletePhotoMutation();
  const ref = { type: targetType, targetId, photoId: photo.id };
  // A deleted photo's tile keeps its busy Delete until the page drops it.
  const busy = choosePrimary.isPending ? 'primary' : removal.isPending || removal.isSuccess ? 'delete' : null;

  async function makePrimary() {
    try {
      await choosePrimary.mutateAsync(ref);
      onPrimary?.(photo.id);
      toast.success('Primary photo updated');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to update primary photo'));
    }
  }

  async function remove() {
    if (!window.confirm(DELETE_PHOTO_CONFIRMATION)) return;
    try {
      await removal.mutateAsync(ref);
      onDeleted?.(photo.id);
      toast.success('Photo deleted successfully');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to delete photo'));
    }
  }

  const offerPrimary = allowed.primary && !photo.is_primary && photo.status === 'ready';
  if (!offerPrimary && !allowed.remove) return null;
  return (
    <div className="photo-tile__actions">
      {offerPrimary && (
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => void makePrimary()}
          disabled={busy !== null}
        >
          <ToolIcon name="star" size={14} />
          {busy === 'primary' ? 'Updating...' : 'Set as primary'}
        </button>
      )}
      {allowed.remove && (
        <button
          type="button"
          className="button button--ghost button--small photo-tile__delete"
          onClick={() => void remove()}
          disabled={busy !== null}
          aria-label={`Delete photo${photo.caption ? ` ${photo.caption}` : ''}`}
        >
          <ToolIcon name="trash" size={14} />
          {busy === 'delete' ? 'Deleting...' : 'Delete'}
        </button>
      )}
    </div>
  );
}
