// One reported (or decided) item in the queue: what it is and where, the content itself, its
// reports by reason, and the moderator's Hide, Restore and Dismiss with an optional note.
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { ItemPhoto } from '../../../components/ItemPhoto.tsx';
import { assetUrl, errorMessage } from '../../../lib/api.ts';
import type { ModerationAction } from '../../../../../contract/moderation.ts';
import { formatLongDate } from '../../../lib/format.ts';
import { TEXT_LIMITS } from '../../../lib/catalogue.ts';
import { limitedChange } from '../../../lib/text-input.ts';
import { useDecideMutation } from '../api/decide.ts';
import { KIND_LABELS, reasonCounts, type QueueItem } from '../reasons.ts';

const DONE: Record<ModerationAction, string> = {
  hide: 'Hidden.',
  restore: 'Restored.',
  dismiss: 'Reports dismissed.',
};

type QueueItemCardProps = {
  item: QueueItem;
  /** Open items have reports to dismiss; resolved ones do not. */
  open: boolean;
};

function when(iso: string | null): string {
  if (!iso) return '—';
  return `${formatLongDate(iso)}, ${new Date(iso).toISOString().slice(11, 16)} UTC`;
}

export function QueueItemCard({ item, open }: QueueItemCardProps) {
  const id = useId();
  const [note, setNote] = useState('');
  const decision = useDecideMutation();
  // The decision on its way, if any (the cached queue shows its answer, api/cache.ts).
  const busy = decision.isPending ? decision.variables.action : null;
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const kind = KIND_LABELS[item.target_type];
  const titleId = `${id}-title`;

  async function act(action: ModerationAction) {
    setOutcome(null);
    try {
      await decision.mutateAsync({ type: item.target_type, id: item.target_id, action, note: note.trim() });
      setNote('');
      setOutcome({ ok: true, text: DONE[action] });
    } catch (error) {
      setOutcome({ ok: false, text: errorMessage(error, `Failed to ${action} this ${kind.toLowerCase()}`) });
    }
  }

  return (
    <article className="card queue-item" aria-labelledby={titleId}>
      <header className="queue-item__header">
        <span className="badge">{kind}</span>
        {item.hidden ? (
          <span className="badge queue-item__hidden">Hidden</span>
        ) : (
          <span className="badge badge--success">Visible</span>
        )}
        <span className="queue-item__count">
          {item.reports} report{item.reports === 1 ? '' : 's'}
        </span>
      </header>
      <h2 id={titleId} className="queue-item__title">
        {item.target_type === 'cat' || item.target_type === 'bodega'
          ? item.title
          : `Reported ${kind.toLowerCase()}`}
      </h2>
      <QueueContent item={item} />
      <p className="queue-item__link">
        <Link to={item.url}>
          {item.target_type === 'cat' || item.target_type === 'bodega'
            ? `Open this ${kind.toLowerCase()}`
            : `Open the page it is on`}
        </Link>
      </p>
      <ul className="queue-item__reasons" aria-label="Reasons">
        {reasonCounts(item.reasons).map((r) => (
          <li key={r.reason} className="badge">
            {r.label} ({r.count})
          </li>
        ))}
      </ul>
      <dl className="queue-item__times">
        <div>
          <dt>First reported</dt>
          <dd>{when(item.first_reported_at)}</dd>
        </div>
        <div>
          <dt>Last reported</dt>
          <dd>{when(item.last_reported_at)}</dd>
        </div>
      </dl>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-note`}>
          Note (optional)
        </label>
        <input
          id={`${id}-note`}
          className="input"
          value={note}
          onChange={limitedChange(TEXT_LIMITS.moderationNote, setNote)}
          disabled={busy !== null}
        />
      </div>
      <div className="queue-item__actions">
        <button
          type="button"
          className="button button--danger"
          onClick={() => void act('hide')}
          disabled={busy !== null || item.hidden}
        >
          {busy === 'hide' ? 'Hiding...' : 'Hide'}
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void act('restore')}
          disabled={busy !== null || !item.hidden}
        >
          {busy === 'restore' ? 'Restoring...' : 'Restore'}
        </button>
        {open && (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => void act('dismiss')}
            disabled={busy !== null}
          >
            {busy === 'dismiss' ? 'Dismissing...' : 'Dismiss'}
          </button>
        )}
      </div>
      <p className={outcome && !outcome.ok ? 'error-box' : 'queue-item__outcome'} role="status">
        {outcome?.text ?? ''}
      </p>
    </article>
  );
}

/** The reported content itself: a review's text, a photo's small variant, a cat's or shop's name. */
function QueueContent({ item }: { item: QueueItem }) {
  if (item.target_type === 'review')
    return <blockquote className="queue-item__quote">{item.title}</blockquote>;
  if (item.target_type === 'photo') {
    return (
      <figure className="queue-item__photo">
        <ItemPhoto src={assetUrl(item.thumb_url)} alt={`Reported photo: ${item.title}`} />
        <figcaption>{item.title}</figcaption>
      </figure>
    );
  }
  return null;
}
