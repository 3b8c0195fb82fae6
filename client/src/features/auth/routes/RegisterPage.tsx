import { useEffect, useState } from 'react';
import { PasswordField } from '../../../components/PasswordField.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { env } from '../../../config/env.ts';
import { getRuntimeConfig } from '../../../lib/runtime-config.ts';
import { useRegisterMutation } from '../api/register.ts';
import { AuthForm } from '../components/AuthForm.tsx';
import { MIN_PASSWORD_LENGTH, registrationProblem } from '../validation.ts';

export default function RegisterPage() {
  const register = useRegisterMutation();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [productName, setProductName] = useState(env.productName);

  useEffect(() => {
    if (!env.apiConfigured) return;
    getRuntimeConfig()
      .then((config) => setProductName(config.product_name))
      .catch(() => {});
  }, []);

  return (
    <AuthForm
      title="Create your account"
      alternative={{ to: '/login', label: 'sign in to your existing account' }}
      submit={{ label: 'Create account', busyLabel: 'Creating account...' }}
      problem={() => registrationProblem(password, confirmPassword)}
      request={register}
      send={async () => {
        await register.mutateAsync({ username: username.trim(), email: email.trim(), password });
        return `Registration successful! Welcome to ${productName}`;
      }}
      failure="Registration failed"
    >
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
    </AuthForm>
  );
}
