// The Content Security Policy allows styles from the app's own files only ('unsafe-inline' is gone
// without a maps key): every main screen, its toasts included, must render with no violation.
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSuite, callApi, gotoRoute, newPage, registerUser, type TestUser, toast } from './harness.ts';

const suite = browserSuite({ SEED_ON_EMPTY: 'true' });
let user: TestUser;

beforeAll(async () => {
  user = await registerUser(suite.server, 'csp');
});

type Violation = { directive: string; blocked: string; where: string; element: string };

/** A page that records every CSP violation, from the first byte, and every console complaint. */
async function watchedPage(token?: string) {
  const { context, page } = await newPage(suite.browser, { token });
  await context.addInitScript(() => {
    const seen: unknown[] = [];
    (window as unknown as { cspViolations: unknown[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push({
        directive: event.violatedDirective,
        blocked: event.blockedURI,
        where: `${event.sourceFile}:${event.lineNumber}`,
        element:
          event.target instanceof Element ? event.target.outerHTML.slice(0, 120) : String(event.target),
      }),
    );
  });
  const complaints: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) complaints.push(message.text());
  });
  const violations = async (): Promise<Violation[]> =>
    page.evaluate(() => (window as unknown as { cspViolations: Violation[] }).cspViolations);
  return { context, page, complaints, violations };
}

describe('content security policy', () => {
  it('sends style-src without unsafe-inline', async () => {
    const res = await fetch(`${suite.server.baseUrl}/`);
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(/style-src ([^;]*)/.exec(policy)?.[1]).toBe("'self'");
    expect(policy).not.toContain('unsafe-inline');
  });

  it('shows the signed-out screens and their toasts with no violation', async () => {
    const { context, page, complaints, violations } = await watchedPage();
    await gotoRoute(page, suite.server, '/');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await gotoRoute(page, suite.server, '/search?q=tabby');
    await page.locator('svg.fmap__canvas').waitFor();
    await page.locator('.fmap__scale-bar').waitFor();

    const cats = await callApi(suite.server, 'GET', '/api/search/cats?per_page=1');
    const cat = cats.body.cats[0];
    await gotoRoute(page, suite.server, `/cat/${cat.id}`);
    await page.getByRole('heading', { level: 1, name: cat.name }).waitFor();
    await gotoRoute(page, suite.server, `/bodega/${cat.bodega_id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();

    await gotoRoute(page, suite.server, '/login');
    await page.getByLabel('Username or Email').fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await toast(page, 'Invalid username or password').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await toast(page, 'Login successful!').waitFor();
    await page.waitForURL(/#\/$/);

    expect(await violations()).toEqual([]);
    expect(complaints).toEqual([]);
    await context.close();
  });

  it('shows the signed-in screens with no violation', async () => {
    const { context, page, complaints, violations } = await watchedPage(user.token);
    for (const [route, heading] of [
      ['/upload', 'Share a Bodega Cat'],
      ['/saved', 'Your Saved Items'],
      ['/recently-viewed', 'Recently Viewed'],
      ['/settings', 'Account settings'],
    ] as const) {
      await gotoRoute(page, suite.server, route);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    }
    expect(await violations()).toEqual([]);
    expect(complaints).toEqual([]);
    await context.close();
  });
});
