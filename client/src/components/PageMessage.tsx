import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Icon, type IconName } from './Icon.tsx';
import './page-message.css';

type PageMessageProps = {
  title: string;
  message?: ReactNode;
  icon?: IconName;
  action?: { to: string; label: string };
  children?: ReactNode;
  tone?: 'neutral' | 'error';
};

/** A centred card for not-found, unauthorised, empty and signed-out states. */
export function PageMessage({ title, message, icon, action, children, tone = 'neutral' }: PageMessageProps) {
  return (
    <section className={`page-message page-message--${tone}`}>
      {icon && (
        <div className="page-message__icon" aria-hidden="true">
          <Icon name={icon} size={40} />
        </div>
      )}
      <h1 className="page-message__title">{title}</h1>
      {message && <p className="page-message__text">{message}</p>}
      {children}
      {action && (
        <Link className="button button--primary" to={action.to}>
          {action.label}
        </Link>
      )}
    </section>
  );
}

/** The answer to an address that names no screen (the catch-all route's, and a route's 404). */
export function PageNotFound() {
  return (
    <PageMessage
      icon="cat"
      title="Page Not Found"
      message="There is nothing at this address."
      action={{ to: '/', label: 'Back to Home' }}
    />
  );
}
