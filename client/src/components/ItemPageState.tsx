// What a cat or bodega screen shows, page-wide, until its item is there to show.
import { PageMessage } from './PageMessage.tsx';
import { Spinner } from './Spinner.tsx';
import type { TargetType } from '../lib/catalogue.ts';
import { ITEM_WORDS } from './item-kinds.ts';

type ItemPageStateProps = {
  kind: TargetType;
  status: 'loading' | 'failed' | 'missing';
  /** Loads the item again ('failed' offers it). */
  onRetry?(): void;
};

export function ItemPageState({ kind, status, onRetry }: ItemPageStateProps) {
  const { noun, title, icon } = ITEM_WORDS[kind];
  if (status === 'loading') {
    return (
      <div className="page page--centered">
        <Spinner label={`Loading ${noun} details...`} size="large" />
      </div>
    );
  }
  if (status === 'failed') {
    return (
      <div className="page">
        <PageMessage icon="alert" tone="error" title={`Failed to load ${noun} details`}>
          <button type="button" className="button button--primary" onClick={onRetry}>
            Try again
          </button>
        </PageMessage>
      </div>
    );
  }
  return (
    <div className="page">
      <PageMessage
        icon={icon}
        title={`${title} Not Found`}
        message={`The ${noun} you're looking for doesn't exist.`}
        action={{ to: '/search', label: 'Back to Search' }}
      />
    </div>
  );
}
