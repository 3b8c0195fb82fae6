import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast/headless';
import { Link, useNavigate } from 'react-router-dom';
import { PasswordField } from '../../../components/PasswordField.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { AuthCard } from '../components/AuthCard.tsx';
import { useSession } from '../stores/session.ts';

export default function LoginPage() {
  const login = useSession((s) => s.login);
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await login(username.trim(), password);
      toast.success('Login successful!');
      void navigate('/');
    } catch (error) {
      toast.error(errorMessage(error, 'Login failed'));
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title="Sign in to your account"
      alternative={
        <>
          Or <Link to="/register">create a new account</Link>
        </>
      }
    >
      <form onSubmit={handleSubmit} aria-busy={busy}>
        <TextField
          label="Username or Email"
          name="username"
          value={username}
          onChange={setUsername}
          autoComplete="username"
          placeholder="Username or Email"
          required
        />
        <PasswordField
          label="Password"
          name="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          placeholder="Password"
        />
        <button type="submit" className="button button--primary button--block button--large" disabled={busy}>
          {busy ? 'Signing in...' : 'Sign in'}
        </button>
      </form>
    </AuthCard>
  );
}
