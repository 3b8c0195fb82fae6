import { RouterProvider, type DataRouter } from 'react-router-dom';
import { AppProvider } from './provider.tsx';

/** The whole app around a router: the browser's hash router, or a fixed one when prerendering. */
export function App({ router }: { router: DataRouter }) {
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
