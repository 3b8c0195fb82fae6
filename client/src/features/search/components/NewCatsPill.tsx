import { Icon } from '../../../components/Icon.tsx';
import './new-cats-pill.css';

/**
 * Announces cats added since the results loaded. The live region always exists so screen
 * readers hear each change politely; the button shows the new cats in the list.
 */
export function NewCatsPill({ count, onShow }: { count: number; onShow(): void }) {
  const text = count === 1 ? '1 new cat' : `${count} new cats`;
  return (
    <div className="new-cats" aria-live="polite" aria-atomic="true">
      {count > 0 && (
        <button type="button" className="new-cats__pill" onClick={onShow}>
          <span className="new-cats__dot" aria-hidden="true" />
          <Icon name="cat" size={16} />
          {text}
          <span className="new-cats__action">Show</span>
        </button>
      )}
    </div>
  );
}
