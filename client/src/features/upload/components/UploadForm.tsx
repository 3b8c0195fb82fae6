// The frame of an upload form: its fields, disabled while it is being sent, and the submit button.
import type { FormEvent, ReactNode } from 'react';
import type { TargetType } from '../../../lib/catalogue.ts';
import { ITEM_WORDS } from '../../items/kinds.ts';

type UploadFormProps = {
  kind: TargetType;
  busy: boolean;
  onSubmit(event: FormEvent): Promise<void>;
  children: ReactNode;
};

export function UploadForm({ kind, busy, onSubmit, children }: UploadFormProps) {
  const { title } = ITEM_WORDS[kind];
  return (
    <form
      className="item-form"
      onSubmit={(e) => void onSubmit(e)}
      aria-label={`Upload ${title}`}
      aria-busy={busy}
    >
      <fieldset className="item-form__grid item-form__fields" disabled={busy}>
        <legend className="visually-hidden">{title}</legend>
        {children}
      </fieldset>
      <div className="item-form__actions">
        <button type="submit" className="button button--primary button--large" disabled={busy}>
          {busy ? 'Uploading...' : `Upload ${title}`}
        </button>
      </div>
    </form>
  );
}
