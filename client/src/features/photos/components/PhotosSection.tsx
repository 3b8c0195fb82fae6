import type { ReactNode } from 'react';
import type { Photo, TargetType } from '../../../lib/catalogue.ts';
import { useSession } from '../../auth/index.ts';
import type { PhotoList } from '../photo-list.ts';
import { PhotoGallery } from './PhotoGallery.tsx';
import { PhotoUploadForm } from './PhotoUploadForm.tsx';

type PhotosSectionProps = {
  list: PhotoList;
  targetType: TargetType;
  targetId: number;
  itemName: string;
  creatorId: number | null;
  /** What the page adds to each photo (its Report button). */
  photoAction?: (photo: Photo) => ReactNode;
};

/** The 'Photos' card of a cat or shop page; signed-in visitors can add one. */
export function PhotosSection({
  list,
  targetType,
  targetId,
  itemName,
  creatorId,
  photoAction,
}: PhotosSectionProps) {
  const signedIn = useSession((s) => s.user !== null);
  const headingId = `photos-${targetType}-${targetId}`;
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId} className="section-title">
        Photos ({list.photos.length})
      </h2>
      <PhotoGallery
        photos={list.photos}
        targetType={targetType}
        targetId={targetId}
        itemName={itemName}
        creatorId={creatorId}
        photoAction={photoAction}
      />
      {signedIn && <PhotoUploadForm targetType={targetType} targetId={targetId} />}
    </section>
  );
}
