// "Report" on a cat, bodega, review or photo: for signed-in people on others' content; signed out,
// it asks them to log in, as saving does.
import { useRef, useState } from 'react';
import toast from 'react-hot-toast/headless';
import type { Photo, Review } from '../../../lib/catalogue.ts';
import { useSession } from '../../auth/index.ts';
import { KIND_LABELS, type ModerationTargetType } from '../reasons.ts';
import { ReportDialog } from './ReportDialog.tsx';
import '../moderation.css';

type ReportButtonProps = {
  type: ModerationTargetType;
  id: number;
  /** Who made it: they cannot report it, so they get no button. */
  ownerId: number | null;
  /** How the button's accessible name says what it reports ("review by ann"). */
  label?: string;
  className?: string;
};

export function ReportButton({ type, id, ownerId, label, className }: ReportButtonProps) {
  const userId = useSession((s) => s.user?.id ?? null);
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  if (userId !== null && userId === ownerId) return null;

  const noun = KIND_LABELS[type].toLowerCase();
  function openDialog() {
    if (userId === null) {
      toast.error(`Please log in to report this ${noun}`);
      return;
    }
    setOpen(true);
  }

  function close() {
    setOpen(false);
    opener.current?.focus();
  }

  return (
    <>
      <button
        ref={opener}
        type="button"
        className={className ?? 'button button--ghost button--small report-button'}
        onClick={openDialog}
        aria-haspopup="dialog"
        aria-label={`Report ${label ?? `this ${noun}`}`}
      >
        Report
      </button>
      {open && <ReportDialog target={{ type, id }} what={`this ${noun}`} onClose={close} />}
    </>
  );
}

/** Report on one photo of a detail page's gallery. */
export function PhotoReportButton({ photo }: { photo: Photo }) {
  return (
    <ReportButton
      type="photo"
      id={photo.id}
      ownerId={photo.uploaded_by}
      label={`photo ${photo.caption || photo.id}`}
    />
  );
}

/** Report on one review of a detail page's list. */
export function ReviewReportButton({ review }: { review: Review }) {
  return (
    <ReportButton
      type="review"
      id={review.id}
      ownerId={review.user.id}
      label={`review by ${review.user.username ?? 'a former member'}`}
    />
  );
}
