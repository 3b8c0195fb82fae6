import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast/headless';
import { useNavigate } from 'react-router-dom';
import { PasswordField } from '../../../components/PasswordField.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useDeleteAccountMutation } from '../api/delete-account.ts';

export const ACCOUNT_DELETED_NOTICE = 'Your account has been deleted.';

/**
 * Says what deletion removes, takes the password, then asks once more on the page itself (no
 * browser dialog, so it reads and works the same with a keyboard and a screen reader). A wrong
 * password brings the form back with the error under it.
 */
export function DeleteAccount() {
  const deleteAccount = useDeleteAccountMutation();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [step, setStep] = useState<'form' | 'confirm'>('form');
  const [problem, setProblem] = useState<string | null>(null);
  // Once it succeeded the page is on its way home.
  const busy = deleteAccount.isPending || deleteAccount.isSuccess;
  const problemId = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (step === 'confirm') confirmRef.current?.focus();
  }, [step]);

  function ask(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setStep('confirm');
  }

  function backToForm(error: string | null) {
    setProblem(error);
    setStep('form');
    // The field again, where the error is read out next to it.
    requestAnimationFrame(() => formRef.current?.querySelector('input')?.focus());
  }

  async function confirmDeletion() {
    if (busy) return;
    try {
      await deleteAccount.mutateAsync(password);
      void navigate('/', { replace: true });
      toast.success(ACCOUNT_DELETED_NOTICE);
    } catch (error) {
      setPassword('');
      backToForm(errorMessage(error, 'Failed to delete your account'));
    }
  }

  return (
    <section className="card settings__section" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title" className="settings__heading">
        Delete account
      </h2>
      <p className="settings__hint">
        This deletes your username, email address and password, your reviews and photos, your saved cats and
        bodegas, your recently viewed list and your reports. Ratings are worked out again without your
        reviews. Cats and bodegas you added stay, without your name. This cannot be undone.
      </p>
      {step === 'form' ? (
        <form ref={formRef} onSubmit={ask} aria-describedby={problem ? problemId : undefined}>
          <PasswordField
            label="Your password"
            name="delete_account_password"
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
          />
          {problem && (
            <p id={problemId} className="settings__error" role="alert">
              {problem}
            </p>
          )}
          <button type="submit" className="button button--danger">
            Delete account
          </button>
        </form>
      ) : (
        <div className="settings__confirm" role="group" aria-labelledby="delete-account-confirm">
          <p id="delete-account-confirm" className="settings__confirm-text">
            Delete your account and everything listed above now?
          </p>
          <div className="settings__actions">
            <button
              ref={confirmRef}
              type="button"
              className="button button--danger"
              onClick={() => void confirmDeletion()}
              disabled={busy}
            >
              {busy ? 'Deleting account...' : 'Yes, delete my account'}
            </button>
            <button type="button" className="button" onClick={() => backToForm(null)} disabled={busy}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
