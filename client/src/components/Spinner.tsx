import './spinner.css';

type SpinnerProps = { label?: string; size?: 'small' | 'medium' | 'large' };

/** A spinning ring with a visible label; announced politely to screen readers. */
export function Spinner({ label = 'Loading...', size = 'medium' }: SpinnerProps) {
  return (
    <div className={`spinner spinner--${size}`} role="status" aria-live="polite">
      <span className="spinner__ring" aria-hidden="true" />
      {label && <span className="spinner__label">{label}</span>}
    </div>
  );
}

/** The whole-screen 'Loading...' shown while the session check runs. */
export function FullPageSpinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="full-page-spinner">
      <Spinner label={label} size="large" />
    </div>
  );
}
