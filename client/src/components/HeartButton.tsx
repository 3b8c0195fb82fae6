import { Icon } from './Icon.tsx';
import './heart-button.css';

type HeartButtonProps = { saved: boolean; busy?: boolean; onToggle(): void; saveLabel: string };

/** The heart that saves an item or removes it from the saved list. */
export function HeartButton({ saved, busy = false, onToggle, saveLabel }: HeartButtonProps) {
  return (
    <button
      type="button"
      className={saved ? 'icon-button heart-button heart-button--saved' : 'icon-button heart-button'}
      onClick={onToggle}
      disabled={busy}
      aria-pressed={saved}
      aria-label={saved ? 'Remove from Saved' : saveLabel}
      title={saved ? 'Remove from Saved' : saveLabel}
    >
      <Icon name="heart" size={22} />
    </button>
  );
}
