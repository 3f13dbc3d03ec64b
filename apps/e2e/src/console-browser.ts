import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { TestStack } from '@ecomm-sync/testing';

/** The console's browser test kit (decision 0033): Debian's chromium, axe-core, screenshots into docs/console/. */
export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve(__dirname, '..', '..', '..', 'docs', 'console');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const axeSource: string = require('axe-core').source;

export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (npm test installs it)`);
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** A console spec's stack (started with `env`, logging warnings only) and a chromium to drive it. */
export interface ConsoleStack {
  stack: TestStack;
  browser: Browser;
}

export async function startConsoleStack(env: Record<string, string> = {}): Promise<ConsoleStack> {
  const stack = await TestStack.start({ env: { LOG_LEVEL: 'warn', ...env } });
  try {
    return { stack, browser: await launchChromium() };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

/** Closes what `startConsoleStack` started, as far as it got (for afterAll after a failed beforeAll). */
export async function stopConsoleStack(started: Partial<ConsoleStack>) {
  await started.browser?.close();
  await started.stack?.stop();
}

/** The console's address on a stack, `path` below /console/. */
export const consoleUrl = (stack: TestStack, path = '') => `${stack.gatewayUrl}/console/${path}`;

/** A fresh tab (its own sessionStorage): nobody is signed in. bypassCSP lets axe-core be injected. */
export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return page;
}

/** No serious or critical accessibility violation on the page as it is now. */
export async function expectAccessible(page: Page, name: string) {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate<string[]>(
    `axe.run(document).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
  );
  expect({ page: name, violations }).toEqual({ page: name, violations: [] });
}

export const screenshot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });

/** Signs in from the sign-in page (a customer's `credential` kind picked when it is not the portal key), submitting with the keyboard. */
export async function signIn(
  page: Page,
  stack: TestStack,
  role: 'customer' | 'integrator' | 'operator',
  fields: Record<string, string>,
  credential?: 'OAuth access token of an installed application',
) {
  await page.goto(consoleUrl(stack));
  await page.getByRole('heading', { name: 'Sign in to the ecomm-sync console' }).waitFor();
  const roleLabel = { customer: 'A customer (portal)', integrator: 'An integrator (application)', operator: 'An operator' }[role];
  await page.getByLabel(roleLabel).check();
  if (credential) await page.getByLabel(credential).check();
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByLabel(Object.keys(fields)[0], { exact: true }).press('Enter');
}
