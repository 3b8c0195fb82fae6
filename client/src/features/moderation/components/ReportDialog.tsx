// The report dialog: a reason (required), an optional comment, and the server's answer in place.
// A modal <dialog> keeps focus inside and closes on Escape; the opener gets focus back.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { TEXT_LIMITS } from '../../../lib/catalogue.ts';
import { characterCount, limitedChange } from '../../../lib/text-input.ts';
import { useReportContentMutation } from '../api/report-content.ts';
import {
  REASON_LABELS,
  REASONS,
  REPORT_THANKS,
  reportErrorMessage,
  type ModerationTargetType,
  type ReportReason,
} from '../reasons.ts';

type ReportDialogProps = {
  target: { type: ModerationTargetType; id: number };
  /** What is reported, as the dialog's title says it ("this review"). */
  what: string;
  onClose(): void;
};

export function ReportDialog({ target, what, onClose }: ReportDialogProps) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const doneButton = useRef<HTMLButtonElement>(null);
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [comment, setComment] = useState('');
  const report = useReportContentMutation();
  const state = report.isSuccess ? 'sent' : report.isPending ? 'sending' : 'editing';
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open && typeof element.showModal === 'function') element.showModal();
  }, []);

  useEffect(() => {
    if (state === 'sent') doneButton.current?.focus();
  }, [state]);

  // Every way out goes through the dialog's own close, so the page is no longer inert when
  // onClose hands focus back to the opener.
  function close() {
    dialog.current?.close();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (state !== 'editing') return;
    if (!reason) {
      setError('Choose a reason.');
      return;
    }
    setError(null);
    try {
      const text = comment.trim();
      await report.mutateAsync({
        target_type: target.type,
        target_id: target.id,
        reason,
        ...(text ? { comment: text } : {}),
      });
    } catch (failure) {
      setError(reportErrorMessage(failure));
    }
  }

  const titleId = `${id}-title`;
  return (
    <dialog ref={dialog} className="report-dialog" aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId} className="report-dialog__title">
        Report {what}
      </h2>
      {state === 'sent' ? (
        <>
          <p className="report-dialog__thanks" role="status">
            {REPORT_THANKS}
          </p>
          <div className="report-dialog__actions">
            <button ref={doneButton} type="button" className="button button--primary" onClick={close}>
              Close
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={(e) => void submit(e)} aria-busy={state === 'sending'}>
          <fieldset className="report-dialog__reasons" disabled={state === 'sending'}>
            <legend className="field__label">Why are you reporting it?</legend>
            {REASONS.map((r) => (
              <label key={r} className="report-dialog__reason">
                <input
                  type="radio"
                  name={`${id}-reason`}
                  value={r}
                  checked={reason === r}
                  onChange={() => setReason(r)}
                />
                {REASON_LABELS[r]}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-comment`}>
              Comment (optional)
            </label>
            <textarea
              id={`${id}-comment`}
              className="textarea"
              rows={3}
              value={comment}
              aria-describedby={`${id}-count`}
              onChange={limitedChange(TEXT_LIMITS.reportComment, setComment)}
              disabled={state === 'sending'}
            />
            <p id={`${id}-count`} className="report-dialog__count">
              {characterCount(comment)}/{TEXT_LIMITS.reportComment}
            </p>
          </div>
          {error && (
            <p className="error-box" role="alert">
              {error}
            </p>
          )}
          <div className="report-dialog__actions">
            <button type="button" className="button button--secondary" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="button button--primary" disabled={state === 'sending'}>
              {state === 'sending' ? 'Sending...' : 'Submit'}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
