import { useEffect, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast/headless';
import { Link, useNavigate } from 'react-router-dom';
import { PasswordField } from '../../../components/PasswordField.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { env } from '../../../config/env.ts';
import { errorMessage } from '../../../lib/api.ts';
import { getRuntimeConfig } from '../../../lib/runtime-config.ts';
import { AuthCard } from '../components/AuthCard.tsx';
import { useSession } from '../stores/session.ts';
import { MIN_PASSWORD_LENGTH, registrationProblem } from '../validation.ts';

export default function RegisterPage() {
  const register = useSession((s) => s.register);
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [productName, setProductName] = useState(env.productName);

  useEffect(() => {
    if (!env.apiConfigured) return;
    getRuntimeConfig()
      .then((config) => setProductName(config.product_name))
      .catch(() => {});
  }, []);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const problem = registrationProblem(password, confirmPassword);
    if (problem) {
      toast.error(problem);
      return;
    }
    setBusy(true);
    try {
      await register(username.trim(), email.trim(), password);
      toast.success(`Registration successful! Welcome to ${productName}`);
      void navigate('/');
    } catch (error) {
      toast.error(errorMessage(error, 'Registration failed'));
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title="Create your account"
      alternative={
        <>
          Or <Link to="/login">sign in to your existing account</Link>
        </>
      }
    >
      <form onSubmit={handleSubmit} aria-busy={busy}>
        <TextField
          label="Username"
          name="username"
          value={username}
          onChange={setUsername}
          autoComplete="username"
          placeholder="Username"
          required
        />
        <TextField
          label="Email address"
          name="email"
          type="email"
          value={email}
          onChange={setEmail}
          autoComplete="email"
          placeholder="Email address"
          required
        />
        <PasswordField
          label="Password"
          name="password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
          placeholder={`At least ${MIN_PASSWORD_LENGTH} characters`}
        />
        <PasswordField
          label="Confirm Password"
          name="confirmPassword"
          value={confirmPassword}
          onChange={setConfirmPassword}
          autoComplete="new-password"
          placeholder="Confirm Password"
        />
        <button type="submit" className="button button--primary button--block button--large" disabled={busy}>
          {busy ? 'Creating account...' : 'Create account'}
        </button>
      </form>
    </AuthCard>
  );
}
