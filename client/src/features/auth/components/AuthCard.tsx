import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/Icon.tsx';
import './auth-card.css';

type AuthCardProps = { title: string; alternative: ReactNode; children: ReactNode };

/** The centred card shared by the sign-in and create-account screens. */
export function AuthCard({ title, alternative, children }: AuthCardProps) {
  return (
    <div className="page page--narrow auth">
      <div className="auth__header">
        <span className="auth__logo" aria-hidden="true">
          <Icon name="cat" size={32} />
        </span>
        <h1 className="auth__title">{title}</h1>
        <p className="auth__alternative">{alternative}</p>
      </div>
      <div className="card">{children}</div>
      <p className="auth__back">
        <Link to="/">Back to Home</Link>
      </p>
    </div>
  );
}
