import { useEffect, type ReactNode } from 'react';
import { Toaster } from '../components/Toaster.tsx';
import { useSession } from '../features/auth/index.ts';

// Durations of the product: errors and plain messages 4 s, successes 2 s, loading until dismissed.
const toastOptions = {
  duration: 4000,
  success: { duration: 2000 },
  error: { duration: 4000 },
  loading: { duration: Infinity },
};

export function AppProvider({ children }: { children: ReactNode }) {
  const init = useSession((s) => s.init);
  const refresh = useSession((s) => s.refresh);
  useEffect(() => {
    void init();
  }, [init]);
  // Coming back to the tab, the signed-in profile is read again (a role changed meanwhile).
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [refresh]);
  return (
    <>
      {children}
      <Toaster toastOptions={toastOptions} />
    </>
  );
}
