import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast/headless';
import { PasswordField } from '../../../components/PasswordField.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useChangePasswordMutation } from '../api/change-password.ts';
import { MIN_PASSWORD_LENGTH, registrationProblem } from '../validation.ts';

/** Current, new and confirmed password; on success this session carries on with the fresh token. */
export function ChangePasswordForm() {
  const change = useChangePasswordMutation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (change.isPending) return;
    const problem = registrationProblem(next, confirm);
    if (problem) {
      toast.error(problem);
      return;
    }
    try {
      await change.mutateAsync({ currentPassword: current, newPassword: next });
      toast.success('Password changed. Other devices have been signed out.');
      setCurrent('');
      setNext('');
      setConfirm('');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to change password'));
    }
  }

  return (
    <section className="card settings__section" aria-labelledby="change-password-title">
      <h2 id="change-password-title" className="settings__heading">
        Change password
      </h2>
      <form onSubmit={handleSubmit} aria-busy={change.isPending}>
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
        <button type="submit" className="button button--primary" disabled={change.isPending}>
          {change.isPending ? 'Changing password...' : 'Change password'}
        </button>
      </form>
    </section>
  );
}
