// The screens written into index.html at build time must be what React's first commit renders
// there: React replaces them, and any difference would show as a flash.
import { render } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../client/src/app/App.tsx';
import { createAppRouter } from '../../../client/src/app/router.tsx';
import { useSession } from '../../../client/src/features/auth/stores/session.ts';
import { PRERENDERED_ROUTES, renderFrame } from '../../../client/src/prerender/frames.tsx';

/** #root's markup after React's first commit at `hash`, as the browser's app renders it. */
function firstCommit(hash: string): string {
  window.location.hash = hash;
  const router = createAppRouter();
  const { container, unmount } = render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
  const markup = normalized(container);
  unmount();
  router.dispose();
  return markup;
}

/**
 * An element's markup with attributes in one order and inline styles written one way: React's
 * client sets them one by one ("position: fixed;"), the server writes them compactly.
 */
function normalized(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const child of copy.querySelectorAll<HTMLElement>('*')) {
    const style = child.getAttribute('style') === null ? null : child.style.cssText;
    const attributes = [...child.attributes].map((a) => [a.name, a.value] as const);
    for (const [name] of attributes) child.removeAttribute(name);
    for (const [name, value] of attributes.sort(([a], [b]) => a.localeCompare(b))) {
      child.setAttribute(name, name === 'style' && style !== null ? style : value);
    }
  }
  return copy.innerHTML;
}

/** Prerendered markup as a browser parses it (quoting, entities, styles), to compare like with like. */
function parsed(html: string): string {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  return normalized(holder);
}

afterEach(() => {
  window.location.hash = '';
  useSession.setState({ user: null, token: null, loading: false });
});

describe('the prerendered screens', () => {
  it('covers the home page and the search page frame, signed out', () => {
    expect(PRERENDERED_ROUTES).toEqual(['/', '/search']);
    const home = renderFrame('/');
    expect(home).toContain('Find Bodega Cats in NYC');
    expect(home).toContain('href="#/login"');
    expect(home).not.toContain('full-page-spinner');
    const search = renderFrame('/search');
    expect(search).toContain('<h1>Search Bodega Cats</h1>');
    expect(search).toContain('aria-current="page"');
    expect(search).toContain('Loading...');
  });

  it.each([
    ['/', '#/'],
    ['/', ''],
    ['/', '#/?ref=flyer'],
    ['/search', '#/search'],
    ['/search', '#/search?q=tabby&tab=bodegas'],
    ['/search', '#/Search/'],
  ])('renders %s as the app renders it at "%s"', (route, hash) => {
    expect(firstCommit(hash)).toBe(parsed(renderFrame(route)));
  });
});
