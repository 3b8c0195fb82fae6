import { HIDDEN_BY_MODERATORS } from '../reasons.ts';
import '../moderation.css';

/** Above content moderation hid, which only its creator and moderators still see. */
export function HiddenBanner({ noun }: { noun: string }) {
  return (
    <div className="hidden-banner" role="note">
      <strong>{HIDDEN_BY_MODERATORS}</strong>
      <span>{`Only its creator and moderators can see this ${noun}; it is not shown anywhere else.`}</span>
    </div>
  );
}
