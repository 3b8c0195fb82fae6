import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { useNavigate } from 'react-router-dom';
import { errorMessage } from '../../../lib/api.ts';
import { useSession } from '../stores/session.ts';

export const SIGN_OUT_EVERYWHERE_CONFIRMATION =
  'Sign out on every device, this one included? You will need to log in again.';

/** Ends every session of the account after a confirmation, and this one with them. */
export function SignOutEverywhere() {
  const logoutEverywhere = useSession((s) => s.logoutEverywhere);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  async function handleClick() {
    if (busy || !window.confirm(SIGN_OUT_EVERYWHERE_CONFIRMATION)) return;
    setBusy(true);
    try {
      await logoutEverywhere();
      toast.success('Signed out everywhere');
      void navigate('/login', { replace: true });
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to sign out everywhere'));
      setBusy(false);
    }
  }

  return (
    <section className="card settings__section" aria-labelledby="sign-out-everywhere-title">
      <h2 id="sign-out-everywhere-title" className="settings__heading">
        Sign out everywhere
      </h2>
      <p className="settings__hint">
        Ends your session on every phone, tablet and computer, including this one.
      </p>
      <button
        type="button"
        className="button button--danger"
        onClick={() => void handleClick()}
        disabled={busy}
      >
        {busy ? 'Signing out...' : 'Sign out everywhere'}
      </button>
    </section>
  );
}
