// The shared look first: every component's own stylesheet comes after it in the cascade.
import './styles/global.css';
import './styles/controls.css';
import { startTransition, StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import type { DataRouter } from 'react-router-dom';
import { App } from './app/App.tsx';
import { createAppRouter } from './app/router.tsx';
import { afterFirstContentfulPaint } from './prerender/after-first-paint.ts';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

// As a transition, the first render yields to the browser between components instead of holding
// the main thread for the whole app at once; the prerendered screen stays up until it commits.
function render(createRoot: (container: HTMLElement) => Root, container: HTMLElement, router: DataRouter) {
  const reactRoot = createRoot(container);
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    ),
  );
}

// The router is created before the first render, so the current route's code starts downloading
// while React is still starting up; but in a task of its own, after the one that ran the app's
// code (the two at once are a long task on a slow phone).
setTimeout(() => {
  const router = createAppRouter();
  // React DOM starts in a task of its own as well (its chunk is already loaded with this one): it
  // and the app's code in one task were the page's longest. With DevTools or any other inspector
  // attached it was longer still: React DOM makes errors at start, and for their stack traces V8
  // re-parsed the whole of its code and of this chunk's (175 ms of a 270 ms task at 4x CPU).
  const reactDom = import('react-dom/client');
  // #root holds a prerendered screen for some routes (see prerender/show-frame.js).
  const painted = root.firstChild ? afterFirstContentfulPaint() : null;
  void Promise.all([reactDom, painted]).then(([{ createRoot }]) => render(createRoot, root, router));
});
