// /settings — the signed-in user's account: who they are, changing the password, signing out
// everywhere, deleting the account.
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { ChangePasswordForm } from '../components/ChangePasswordForm.tsx';
import { DeleteAccount } from '../components/DeleteAccount.tsx';
import { SignOutEverywhere } from '../components/SignOutEverywhere.tsx';
import { useSession } from '../stores/session.ts';
import '../settings.css';

export default function SettingsPage() {
  useDocumentTitle('Account settings');
  const user = useSession((s) => s.user);
  return (
    <div className="page page--narrow settings">
      <h1 className="settings__title">Account settings</h1>
      {user && (
        <p className="settings__who">
          Signed in as <strong>{user.username}</strong>
          {user.email ? ` (${user.email})` : ''}
        </p>
      )}
      <ChangePasswordForm />
      <SignOutEverywhere />
      <DeleteAccount />
    </div>
  );
}
