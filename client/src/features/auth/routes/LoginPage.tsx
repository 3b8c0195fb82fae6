import { useState } from 'react';
import { PasswordField } from '../../../components/PasswordField.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useLoginMutation } from '../api/login.ts';
import { AuthForm } from '../components/AuthForm.tsx';

export default function LoginPage() {
  const login = useLoginMutation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');

  return (
    <AuthForm
      title="Sign in to your account"
      alternative={{ to: '/register', label: 'create a new account' }}
      submit={{ label: 'Sign in', busyLabel: 'Signing in...' }}
      request={login}
      send={async () => {
        await login.mutateAsync({ usernameOrEmail: username.trim(), password });
        return 'Login successful!';
      }}
      failure="Login failed"
    >
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
    </AuthForm>
  );
}
