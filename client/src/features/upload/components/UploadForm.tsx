// The frame of an upload form: its fields, disabled while it is being sent, and the submit button.
import type { ReactNode } from 'react';
import { ITEM_WORDS } from '../../../components/item-kinds.ts';
import type { UploadFormState } from '../hooks/use-upload-form.ts';

type UploadFormProps = {
  upload: Pick<UploadFormState<unknown>, 'kind' | 'busy' | 'submit'>;
  children: ReactNode;
};

export function UploadForm({ upload: { kind, busy, submit }, children }: UploadFormProps) {
  const { title } = ITEM_WORDS[kind];
  return (
    <form
      className="item-form"
      onSubmit={(e) => void submit(e)}
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
