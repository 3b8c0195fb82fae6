// The app's toasts: react-hot-toast's headless store (timers, pausing, one toast per id) drawn with
// the app's own markup and stylesheet. Its styled Toaster injects a <style> element and writes
// style="" markup, which the Content Security Policy (style-src 'self') refuses; this draws none.
// Call sites raise toasts with `toast` from 'react-hot-toast/headless', the store this reads.
import { resolveValue, useToaster, type DefaultToastOptions, type Toast } from 'react-hot-toast/headless';
import { Icon } from './Icon.tsx';
import './toaster.css';

function ToastIcon({ type }: { type: Toast['type'] }) {
  if (type === 'success') return <Icon name="check" size={18} className="toast__icon toast__icon--success" />;
  if (type === 'error') return <Icon name="alert" size={18} className="toast__icon toast__icon--error" />;
  if (type === 'loading') return <span className="toast__icon toast__spinner" aria-hidden="true" />;
  return null;
}

export function Toaster({ toastOptions }: { toastOptions?: DefaultToastOptions }) {
  const { toasts, handlers } = useToaster(toastOptions);
  return (
    <div className="toasts" onMouseEnter={handlers.startPause} onMouseLeave={handlers.endPause}>
      {toasts.map((t) => (
        <div
          key={t.id}
          className={`toast toast--${t.type}${t.visible ? '' : ' toast--leaving'}`}
          {...t.ariaProps}
        >
          <ToastIcon type={t.type} />
          <div className="toast__message">{resolveValue(t.message, t)}</div>
        </div>
      ))}
    </div>
  );
}
