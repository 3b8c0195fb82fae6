import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { Icon } from '../../components/Icon.tsx';
import { useSession } from '../../features/auth/index.ts';
import './nav-bar.css';

function navClass({ isActive }: { isActive: boolean }): string {
  return isActive ? 'nav__link nav__link--active' : 'nav__link';
}

/**
 * The shared header: brand, Search, and the signed-in or signed-out links behind a mobile toggle.
 * The signed-in user's name links to their account settings.
 */
export function NavBar() {
  const user = useSession((s) => s.user);
  const logout = useSession((s) => s.logout);
  const navigate = useNavigate();
  const location = useLocation();
  const [open, setOpen] = useState(false);

  // Following a link closes the mobile menu.
  useEffect(() => setOpen(false), [location.pathname]);

  function handleLogout() {
    logout();
    setOpen(false);
    void navigate('/');
  }

  return (
    <header className="nav">
      <div className="nav__inner">
        <Link to="/" className="nav__brand">
          <span className="nav__logo" aria-hidden="true">
            <Icon name="cat" size={22} />
          </span>
          Bodega Cats
        </Link>
        <button
          type="button"
          className="nav__toggle"
          aria-expanded={open}
          aria-controls="main-menu"
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((v) => !v)}
        >
          <span className="nav__toggle-bar" aria-hidden="true" />
          <span className="nav__toggle-bar" aria-hidden="true" />
          <span className="nav__toggle-bar" aria-hidden="true" />
        </button>
        <nav id="main-menu" className={open ? 'nav__menu nav__menu--open' : 'nav__menu'} aria-label="Main">
          <NavLink to="/search" className={navClass}>
            Search
          </NavLink>
          {user ? (
            <>
              <NavLink to="/saved" className={navClass}>
                Saved
              </NavLink>
              <NavLink to="/recently-viewed" className={navClass}>
                <span className="nav__label--wide">Recent</span>
                <span className="nav__label--narrow">Recently Viewed</span>
              </NavLink>
              <NavLink to="/upload" className={navClass}>
                Upload
              </NavLink>
              {user.role === 'moderator' && (
                <NavLink to="/moderation" className={navClass}>
                  Moderation
                </NavLink>
              )}
              <NavLink
                to="/settings"
                className={(state) => `${navClass(state)} nav__user`}
                aria-label={`Account settings (${user.username})`}
                title="Account settings"
              >
                <Icon name="user" size={16} />
                <span className="nav__username">{user.username}</span>
              </NavLink>
              <button type="button" className="button button--ghost nav__logout" onClick={handleLogout}>
                Logout
              </button>
            </>
          ) : (
            <>
              <NavLink to="/login" className={navClass}>
                Login
              </NavLink>
              <Link to="/register" className="button button--primary nav__signup">
                Sign Up
              </Link>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}
