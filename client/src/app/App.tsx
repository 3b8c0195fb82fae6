import { RouterProvider } from 'react-router-dom';
import { AppProvider } from './provider.tsx';
import { createAppRouter } from './router.tsx';

// Created as the app's code runs, not during the first render: the current route's code starts
// downloading while React is still starting up.
const router = createAppRouter();

export function App() {
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
