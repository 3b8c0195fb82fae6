// show-frame.js (run from index.html before the app's code) picks the prerendered screen; it must
// pick one only where the app's router renders that route, and none for a visitor with a token.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppRouter } from '../../../client/src/app/router.tsx';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SCRIPT = readFileSync(path.join(HERE, '../../../client/src/prerender/show-frame.js'), 'utf8');

/** Runs the script on a page holding the two templates; answers which one ended up in #root. */
function runAt(hash: string): string | null {
  window.location.hash = hash;
  document.body.innerHTML =
    '<div id="root"></div>' +
    '<template data-prerendered-route="/"><p>home frame</p></template>' +
    '<template data-prerendered-route="/search"><p>search frame</p></template>';
  new Function(SCRIPT)();
  expect(document.querySelectorAll('template').length).toBe(0);
  const text = document.getElementById('root')?.textContent ?? '';
  return text === 'home frame' ? '/' : text === 'search frame' ? '/search' : text === '' ? null : text;
}

/** The route the app's router matches at `hash` ('/' for the home page). */
function routerRouteAt(hash: string): string | undefined {
  window.location.hash = hash;
  const router = createAppRouter();
  const leaf = router.state.matches[router.state.matches.length - 1]?.route;
  router.dispose();
  return leaf?.index ? '/' : leaf?.path ? `/${leaf.path}` : undefined;
}

afterEach(() => {
  localStorage.clear();
  window.location.hash = '';
  document.body.innerHTML = '';
});

describe('choosing the prerendered screen', () => {
  it.each([
    ['', '/'],
    ['#/', '/'],
    ['#/?ref=flyer', '/'],
    ['#/search', '/search'],
    ['#/search?q=tabby&tab=bodegas', '/search'],
    ['#/search/', '/search'],
    ['#/Search', '/search'],
    ['#search', '/search'],
    ['#/login', null],
    ['#/cat/12', null],
    ['#/searching', null],
    ['#/search/extra', null],
    ['#/saved', null],
  ])('at "%s" shows %s, the route the router renders there', (hash, frame) => {
    expect(runAt(hash)).toBe(frame);
    if (frame) expect(routerRouteAt(hash)).toBe(frame);
    else expect(['/', '/search']).not.toContain(routerRouteAt(hash));
  });

  it('shows nothing to a visitor with a stored token (the app shows the session spinner)', () => {
    localStorage.setItem('token', 'stored');
    expect(runAt('#/')).toBeNull();
    expect(runAt('#/search')).toBeNull();
  });
});
