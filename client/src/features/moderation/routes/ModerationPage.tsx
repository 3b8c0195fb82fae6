// /moderation — the moderators' queue: open reports (most reported first) or resolved ones, a page
// at a time, each item with its content, reasons and the decisions. Members get "Moderators only".
import { useEffect, useState } from 'react';
import { PageMessage } from '../../../components/PageMessage.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { Tabs } from '../../../components/Tabs.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import type { QueueResponse, QueueStatus } from '../../../../../contract/moderation.ts';
import { useSession } from '../../auth/index.ts';
import { QueueItemCard } from '../components/QueueItemCard.tsx';
import { useLiveQueue } from '../use-live-queue.ts';
import '../moderation.css';

const TABS = [
  { key: 'open', label: 'Open' },
  { key: 'resolved', label: 'Resolved' },
] as const;

export default function ModerationPage() {
  const role = useSession((s) => s.user?.role);
  useDocumentTitle('Moderation');
  if (role !== 'moderator') return <ModeratorsOnly />;
  return <ModerationQueue />;
}

function ModeratorsOnly() {
  return (
    <div className="page">
      <PageMessage
        icon="alert"
        tone="error"
        title="Moderators only"
        message="This page is for the community's moderators."
        action={{ to: '/', label: 'Back to Home' }}
      />
    </div>
  );
}

function ModerationQueue() {
  const [status, setStatus] = useState<QueueStatus>('open');
  const [page, setPage] = useState(1);
  const { query, data, notice, showLatest } = useLiveQueue(status, page);

  function select(next: QueueStatus) {
    setStatus(next);
    setPage(1);
  }

  // A role taken away since sign-in: the server says 403, and the profile read again drops the
  // nav's link.
  const forbidden = query.error instanceof ApiError && query.error.status === 403;
  const refresh = useSession((s) => s.refresh);
  useEffect(() => {
    if (forbidden) void refresh();
  }, [forbidden, refresh]);
  if (forbidden) return <ModeratorsOnly />;

  return (
    <div className="page moderation">
      <h1 className="moderation__title">Moderation</h1>
      <Tabs label="Reports" tabs={TABS} selected={status} onSelect={select}>
        {/* Always in the page, so that a notice appearing in it is announced. */}
        <div role="status">
          {notice && (
            <p className="moderation__notice">
              {notice}
              <button type="button" className="button button--primary button--small" onClick={showLatest}>
                Show
              </button>
            </p>
          )}
        </div>
        {query.isPending || !data ? (
          <Spinner label="Loading reports..." />
        ) : query.isError ? (
          <p className="error-box" role="alert">
            {errorMessage(query.error, 'Failed to load the moderation queue')}
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => void query.refetch()}
            >
              Try again
            </button>
          </p>
        ) : (
          <QueuePage
            data={data}
            open={status === 'open'}
            onPage={setPage}
            empty={status === 'open' ? 'No open reports. All clear!' : 'Nothing resolved yet.'}
          />
        )}
      </Tabs>
    </div>
  );
}

type QueuePageProps = {
  data: QueueResponse;
  open: boolean;
  onPage(page: number): void;
  empty: string;
};

function QueuePage({ data, open, onPage, empty }: QueuePageProps) {
  const { items, pagination } = data;
  if (items.length === 0) return <p className="moderation__empty">{empty}</p>;
  return (
    <>
      <ul className="moderation__list">
        {items.map((item) => (
          <li key={`${item.target_type}-${item.target_id}`}>
            <QueueItemCard item={item} open={open} />
          </li>
        ))}
      </ul>
      {pagination.pages > 1 && (
        <nav className="moderation__pages" aria-label="Queue pages">
          <button
            type="button"
            className="button button--secondary"
            onClick={() => onPage(pagination.page - 1)}
            disabled={pagination.page <= 1}
          >
            Previous
          </button>
          <span>
            Page {pagination.page} of {pagination.pages}
          </span>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => onPage(pagination.page + 1)}
            disabled={pagination.page >= pagination.pages}
          >
            Next
          </button>
        </nav>
      )}
    </>
  );
}
