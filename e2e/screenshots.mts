// Takes screenshots of the main screens for a person to look at: npx tsx e2e/screenshots.mts [outDir]
// (default /tmp/vpp-screenshots). Not a test; screenshots stay out of the repository.

import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { launch, logIn, newPage } from './support/browser.ts';
import { SMALL_FLEET, startServer } from './support/server.ts';

const out = process.argv[2] ?? '/tmp/vpp-screenshots';
fs.mkdirSync(out, { recursive: true });
// Transitions (the menu fades in over 150 ms) are finished before the picture is taken.
const shoot = (p: Page, name: string) => p.screenshot({ path: `${out}/${name}.png`, animations: 'disabled' });

const srv = await startServer(SMALL_FLEET);
const b = await launch();
try {
  const p = await newPage(b, srv.url);
  await p.goto('/');
  await p.getByLabel('Username or email').waitFor();
  await shoot(p, 'login');
  await logIn(p, 'retailer', 'wrong password');
  await p.getByRole('alert').waitFor();
  await shoot(p, 'login-failed');
  await logIn(p, 'retailer');
  await p.getByText('Welcome, Rita').waitFor({ timeout: 15000 });
  await shoot(p, 'dashboard');
  await p.getByRole('button', { name: 'User menu' }).click();
  await p.getByRole('menu').getByText('Logged in as').waitFor();
  await shoot(p, 'menu');
  await p.goto('/nothing-here');
  await p.getByText('This page could not be found.').waitFor();
  await shoot(p, '404');
  await p.goto('/user/settings');
  await p.getByRole('heading', { name: 'User Settings' }).waitFor();
  await shoot(p, 'settings');

  const perth = await newPage(b, srv.url, { timezoneId: 'Australia/Perth' });
  await perth.goto('/');
  await logIn(perth, 'retailer');
  await perth.getByRole('button', { name: 'Dismiss' }).waitFor({ timeout: 15000 });
  await shoot(perth, 'timezone-banner');

  const anon = await newPage(b, srv.url);
  await anon.goto('/password/anything');
  await anon.getByText('This page could not be found.').waitFor();
  await shoot(anon, '404-public');

  const p2 = await newPage(b, srv.url);
  await p2.goto('/');
  await logIn(p2, 'mfa');
  await p2.getByLabel('6-digit code').fill('000000');
  await p2.getByRole('button', { name: 'Verify' }).click();
  await p2.getByRole('alert').waitFor();
  await shoot(p2, 'mfa');

  const p3 = await newPage(b, srv.url);
  await p3.goto('/');
  await logIn(p3, 'newmfa');
  await p3.getByText('Set up two-factor').waitFor();
  await shoot(p3, 'mfa-setup');
} finally {
  await b.close();
  await srv.stop();
}
