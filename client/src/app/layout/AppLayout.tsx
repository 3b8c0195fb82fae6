import { Outlet } from 'react-router-dom';
import { FullPageSpinner } from '../../components/Spinner.tsx';
import { useSession } from '../../features/auth/stores/session.ts';
import { NavBar } from './NavBar.tsx';

/** Header around every route; the whole page waits for the session check (max 3 s). */
export function AppLayout() {
  const loading = useSession((s) => s.loading);
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
