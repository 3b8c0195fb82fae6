import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast/headless';
import { PasswordField } from '../../../components/PasswordField.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useSession } from '../stores/session.ts';
import { MIN_PASSWORD_LENGTH, registrationProblem } from '../validation.ts';

/** Current, new and confirmed password; on success this session carries on with the fresh token. */
export function ChangePasswordForm() {
  const changePassword = useSession((s) => s.changePassword);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = registrationProblem(next, confirm);
    if (problem) {
      toast.error(problem);
      return;
    }
    setBusy(true);
    try {
      await changePassword(current, next);
      toast.success('Password changed. Other devices have been signed out.');
      setCurrent('');
      setNext('');
      setConfirm('');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to change password'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card settings__section" aria-labelledby="change-password-title">
      <h2 id="change-password-title" className="settings__heading">
        Change password
      </h2>
      <form onSubmit={handleSubmit} aria-busy={busy}>
        <PasswordField
          label="Current password"
          name="current_password"
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
        />
        <PasswordField
          label="New password"
          name="new_password"
          value={next}
          onChange={setNext}
          autoComplete="new-password"
          placeholder={`At least ${MIN_PASSWORD_LENGTH} characters`}
        />
        <PasswordField
          label="Confirm new password"
          name="confirm_password"
          value={confirm}
          onChange={setConfirm}
          autoComplete="new-password"
        />
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Changing password...' : 'Change password'}
        </button>
      </form>
    </section>
  );
}
