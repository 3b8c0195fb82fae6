import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { FullPageSpinner } from '../../components/Spinner.tsx';
import { useSession } from '../../features/auth/index.ts';
import { NavBar } from './NavBar.tsx';

/** Header around every route; the whole page waits for the session check (max 3 s). */
export function AppLayout() {
  const loading = useSession((s) => s.loading);
  const { key } = useLocation();
  // A sign-out's move has happened: guarded screens redirect to /login again from here on.
  useEffect(() => {
    if (useSession.getState().leaving) useSession.setState({ leaving: false });
  }, [key]);
  if (loading) return <FullPageSpinner />;
  return (
    <>
      {/* A button, not href="#main": with hash routing a fragment link would change the route. */}
      <button type="button" className="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <NavBar />
      <main id="main" className="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
