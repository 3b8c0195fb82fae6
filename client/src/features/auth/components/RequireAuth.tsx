import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../stores/session.ts';
import { Spinner } from '../../../components/Spinner.tsx';

/**
 * Guards a signed-in screen: spinner while the session loads, then /login (replacing history), but
 * for someone who has just signed out here, whom the sign-out itself takes elsewhere.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const user = useSession((s) => s.user);
  const loading = useSession((s) => s.loading);
  const leaving = useSession((s) => s.leaving);
  const location = useLocation();
  if (loading) {
    return (
      <div className="page page--centered">
        <Spinner />
      </div>
    );
  }
  // Signed out by their own hand: the control they used is moving the page on (Logout goes home).
  if (!user && leaving) return null;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <>{children}</>;
}
