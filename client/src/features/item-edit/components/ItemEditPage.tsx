// The frame of a cat's or bodega's edit screen: loads the item, lets only its creator in, and
// gives the loaded item to the screen's form.
import { Fragment, type ReactNode } from 'react';
import { PageMessage } from '../../../components/PageMessage.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import type { TargetType } from '../../../lib/catalogue.ts';
import { useSession } from '../../auth/index.ts';
import { useEditableItem } from '../hooks/use-editable-item.ts';
import { itemPath, ITEM_WORDS } from '../../../components/item-kinds.ts';
import { ItemPageState } from '../../../components/ItemPageState.tsx';

type EditableItem = { id: number; name: string; created_by: number | null };

type ItemEditPageProps<T> = {
  kind: TargetType;
  fetchItem(id: number, signal?: AbortSignal): Promise<T>;
  /** The item itself within what fetchItem answers. */
  itemOf(data: T): EditableItem;
  /** The form for what was loaded; `reload` brings the latest version into a fresh form. */
  children(data: T, reload: () => void): ReactNode;
};

export function ItemEditPage<T>({ kind, fetchItem, itemOf, children }: ItemEditPageProps<T>) {
  const user = useSession((s) => s.user);
  const { loaded, reload } = useEditableItem(kind, fetchItem);
  useDocumentTitle(loaded.status === 'ready' ? `Edit ${itemOf(loaded.data).name}` : null);

  if (loaded.status !== 'ready') return <ItemPageState kind={kind} status={loaded.status} />;
  const item = itemOf(loaded.data);
  const { noun, title, plural } = ITEM_WORDS[kind];
  if (!user || user.id !== item.created_by) {
    return (
      <div className="page">
        <PageMessage
          icon="alert"
          tone="error"
          title="Unauthorized"
          message={`You can only edit ${plural} that you created.`}
          action={{ to: itemPath(kind, item.id), label: `Back to ${title}` }}
        />
      </div>
    );
  }
  return (
    <div className="page">
      <section className="card edit-page__card" aria-labelledby={`edit-${noun}-title`}>
        <h1 id={`edit-${noun}-title`} className="edit-page__title">
          Edit {item.name}
        </h1>
        <Fragment key={loaded.key}>{children(loaded.data, reload)}</Fragment>
      </section>
    </div>
  );
}
