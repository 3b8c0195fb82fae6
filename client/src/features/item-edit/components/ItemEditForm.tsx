// The frame of a cat's or bodega's edit form: the conflict notice, what it shows read-only, its
// editable fields (disabled while a request runs), and Cancel, Save Changes and Delete.
import type { ReactNode } from 'react';
import { useItemEdit, type ItemEditOptions } from '../hooks/use-item-edit.ts';
import { ITEM_WORDS } from '../../../components/item-kinds.ts';

type ItemEditFormProps = ItemEditOptions & {
  /** Loads the latest version after a conflict. */
  onStale(): void;
  /** What the form shows about the item without letting it be changed, above the fields. */
  readOnlyPart: ReactNode;
  /** The editable fields. */
  children: ReactNode;
};

export function ItemEditForm({ onStale, readOnlyPart, children, ...options }: ItemEditFormProps) {
  const { busy, stale, submit, confirmAndDelete, cancel } = useItemEdit(options);
  const { noun, title } = ITEM_WORDS[options.kind];
  return (
    <form className="item-form" onSubmit={(e) => void submit(e)} aria-busy={busy !== null}>
      {stale && (
        <div className="error-box item-form__conflict" role="alert">
          <span>{`This ${noun} was changed by someone else while you were editing it.`}</span>
          <button type="button" className="button button--secondary button--small" onClick={onStale}>
            Load latest version
          </button>
        </div>
      )}
      {readOnlyPart}
      <fieldset className="item-form__grid item-form__fields" disabled={busy !== null}>
        <legend className="visually-hidden">{title}</legend>
        {children}
      </fieldset>
      <div className="item-form__actions">
        <button type="button" className="button button--secondary" onClick={cancel} disabled={busy !== null}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={busy !== null}>
          {busy === 'save' ? 'Saving...' : 'Save Changes'}
        </button>
        <button
          type="button"
          className="button button--danger item-form__danger"
          onClick={() => void confirmAndDelete()}
          disabled={busy !== null}
        >
          {busy === 'delete' ? 'Deleting...' : `Delete ${title}`}
        </button>
      </div>
    </form>
  );
}
