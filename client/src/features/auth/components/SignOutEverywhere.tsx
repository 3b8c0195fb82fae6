import toast from 'react-hot-toast/headless';
import { useNavigate } from 'react-router-dom';
import { errorMessage } from '../../../lib/api.ts';
import { useLogoutEverywhereMutation } from '../api/logout-all.ts';

export const SIGN_OUT_EVERYWHERE_CONFIRMATION =
  'Sign out on every device, this one included? You will need to log in again.';

/** Ends every session of the account after a confirmation, and this one with them. */
export function SignOutEverywhere() {
  const logoutEverywhere = useLogoutEverywhereMutation();
  const navigate = useNavigate();
  // Once it succeeded the page is on its way to /login.
  const busy = logoutEverywhere.isPending || logoutEverywhere.isSuccess;

  async function handleClick() {
    if (busy || !window.confirm(SIGN_OUT_EVERYWHERE_CONFIRMATION)) return;
    try {
      await logoutEverywhere.mutateAsync();
      toast.success('Signed out everywhere');
      void navigate('/login', { replace: true });
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to sign out everywhere'));
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
