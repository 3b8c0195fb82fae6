// What the other features and app/ use of the session: who is signed in (the store), and the
// guards of the screens for signed-in people.
export { RequireAuth } from './components/RequireAuth.tsx';
export { SignedInOnly } from './components/SignedInOnly.tsx';
export { useSession, type User } from './stores/session.ts';
