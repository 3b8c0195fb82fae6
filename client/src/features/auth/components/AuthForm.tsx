import type { UseMutationResult } from '@tanstack/react-query';
import type { FormEvent, ReactNode } from 'react';
import toast from 'react-hot-toast/headless';
import { Link, useNavigate } from 'react-router-dom';
import { Icon } from '../../../components/Icon.tsx';
import { errorMessage } from '../../../lib/api.ts';
import './auth-card.css';

type AuthFormProps = {
  title: string;
  /** The other screen, offered under the title: "Or <label>". */
  alternative: { to: string; label: string };
  /** The submit button's text, and its text while the form is sent. */
  submit: { label: string; busyLabel: string };
  /** What the fields break before anything is sent, or null. */
  problem?(): string | null;
  /**
   * The sign-in's or sign-up's mutation: the form is busy while it runs, and once it succeeded
   * (the page is then on its way home).
   */
  request: Pick<UseMutationResult, 'isPending' | 'isSuccess'>;
  /** Signs in or up through `request`; answers the welcome. */
  send(): Promise<string>;
  /** Said when `send` fails with no message of its own. */
  failure: string;
  children: ReactNode;
};

/**
 * The centred card of the sign-in and create-account screens with its form: one request at a
 * time, then home with the welcome, or the reason it failed and the form again.
 */
export function AuthForm({
  title,
  alternative,
  submit,
  problem,
  request,
  send,
  failure,
  children,
}: AuthFormProps) {
  const navigate = useNavigate();
  const busy = request.isPending || request.isSuccess;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const broken = problem?.();
    if (broken) {
      toast.error(broken);
      return;
    }
    try {
      toast.success(await send());
      void navigate('/');
    } catch (error) {
      toast.error(errorMessage(error, failure));
    }
  }

  return (
    <div className="page page--narrow auth">
      <div className="auth__header">
        <span className="auth__logo" aria-hidden="true">
          <Icon name="cat" size={32} />
        </span>
        <h1 className="auth__title">{title}</h1>
        <p className="auth__alternative">
          Or <Link to={alternative.to}>{alternative.label}</Link>
        </p>
      </div>
      <div className="card">
        <form onSubmit={handleSubmit} aria-busy={busy}>
          {children}
          <button
            type="submit"
            className="button button--primary button--block button--large"
            disabled={busy}
          >
            {busy ? submit.busyLabel : submit.label}
          </button>
        </form>
      </div>
      <p className="auth__back">
        <Link to="/">Back to Home</Link>
      </p>
    </div>
  );
}
