// The main shell's navigation: the sidebar by permission, the 404 page, the old routes that
// redirect, and the time zone banner.
import { DEMO_USERS } from '@vpp/shared/demo';
import { nodeEndpoints } from '@vpp/shared/nodes/endpoints';
import { isKnownPermission, PERMISSIONS, type PermissionName, type PermissionRequirement, satisfies } from '@vpp/shared/permissions/registry';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logIn } from './support/browser.ts';
import { eventually, gone, pathOf, reachPath, shown, signIn, useApp } from './support/fixtures.ts';

const app = useApp();

/** A permission of the shared registry: a typo fails the typecheck, and the registry is asked too. */
function permission(name: PermissionName): PermissionName {
  if (!isKnownPermission(name)) throw new Error(`${name} is not in the permission registry`);
  return name;
}

/**
 * The sidebar of spec 1 §2, in its group order, with the links of the route table (sidebar links
 * use limit 10): only the entries whose pages the app has so far. Add each new one here.
 */
const SIDEBAR: { label: string; href: string; permission: PermissionRequirement | null }[] = [
  { label: 'Dashboard', href: '/', permission: null },
  // Virtual Power Plants
  { label: 'Build and Edit', href: '/virtual-power-plants/manage?limit=10&offset=0', permission: permission('fleet.powerstations.any') },
  { label: 'Dispatches', href: '/virtual-power-plants/dispatches?limit=10&offset=0', permission: permission('fleet.dispatches.any') },
  {
    label: 'RERT Dispatches',
    href: '/virtual-power-plants/rert-dispatches?limit=10&offset=0',
    permission: { anyOf: [permission('fleet.rert.any'), permission('fleet.rert.dispatches.any')] },
  },
  { label: 'Grid Outages', href: '/virtual-power-plants/grid-outages', permission: permission('fleet.powerstations.gridOutages.any') },
  {
    label: 'Feed-In Management',
    href: '/virtual-power-plants/feed-in-management?tab=CURTAILMENT_LIST&limit=10&offset=0',
    permission: permission('fleet.curtailments.any'),
  },
  // GridCredits
  { label: 'Billing', href: '/gridcredits/billing?limit=10&offset=0', permission: permission('fleet.billing.gridcredits.view') },
  // Analysis
  { label: 'Data Export (csv)', href: '/analysis/export?limit=10&offset=0', permission: permission('fleet.analysis.export.view') },
  // Fleet Monitoring
  { label: 'Fleet Monitoring', href: '/fleet-monitoring/nodes?tab=LIST&limit=10&offset=0', permission: permission('fleet.node.any') },
  // Ordering
  { label: 'Kit Builder', href: '/ordering/kit-designer', permission: permission('fleet.kitDesigner') },
  // Support
  { label: 'Support', href: '/support-issues?limit=10&offset=0', permission: { anyOf: [permission('fleet.node.any'), permission('fleet.zendesk.edit')] } },
  // Customers
  {
    label: 'Customers',
    href: '/customers/manage?limit=10&offset=0',
    permission: { anyOf: [permission('fleet.customerInformation.any'), permission('fleet.customerInformation.contracts.any')] },
  },
  { label: 'Plans', href: '/customers/plans?limit=10&offset=0', permission: permission('fleet.customerInformation.plans.any') },
  // My Reposit
  { label: 'Users', href: '/my-reposit/users?limit=10&offset=0', permission: permission('fleet.myReposit.users') },
  { label: 'Invoices', href: '/my-reposit/billing?limit=10&offset=0', permission: permission('fleet.myReposit.billing') },
  { label: 'OpenADR', href: '/my-reposit/openadr', permission: permission('fleet.administrator') },
];

/** What the seed grants a demo user ('all' is every permission of the registry). */
function permissionsOf(username: string): string[] {
  const user = DEMO_USERS.find((u) => u.username === username);
  if (!user) throw new Error(`no demo user ${username}`);
  return user.permissions === 'all' ? PERMISSIONS.map((p) => p.name) : [...user.permissions];
}

/** The expected sidebar entries the filter keeps, as label and link. */
function sidebarEntries(filter: (entry: (typeof SIDEBAR)[number]) => boolean) {
  return SIDEBAR.filter(filter).map(({ label, href }) => ({ label, href }));
}

async function renderedSidebar(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await shown(nav.getByRole('link').first());
  return nav.locator('a[href]').evaluateAll((links) => links.map((a) => ({ label: a.textContent?.trim(), href: a.getAttribute('href') })));
}

describe('the sidebar', () => {
  it.each([
    ['retailer', 'Rita'],
    ['operator', 'Oscar'],
  ])('shows %s exactly the pages the route table opens to their permissions', async (username, givenName) => {
    const held = permissionsOf(username);
    const page = await app.page();
    await signIn(page, username, givenName);
    const rendered = await renderedSidebar(page);

    expect(rendered).toEqual(sidebarEntries((entry) => entry.permission === null || satisfies(held, entry.permission)));
    expect(rendered.map((l) => l.label)).toContain('Dashboard');
    // Nothing the user lacks the permission for, whatever pages exist by now.
    const withheld = sidebarEntries((entry) => entry.permission !== null && !satisfies(held, entry.permission));
    for (const entry of withheld) expect(rendered.map((l) => l.href)).not.toContain(entry.href);
  });

  it('gives retailer, who holds every permission, every sidebar entry', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    expect(await renderedSidebar(page)).toEqual(sidebarEntries(() => true));
  });

  it('leads from each entry to its page', async () => {
    const page = await app.page();
    await signIn(page, 'operator', 'Oscar');
    for (const entry of await renderedSidebar(page)) {
      await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: entry.label, exact: true }).click();
      await reachPath(page, entry.href as string);
      expect(await page.getByText('This page could not be found.').count()).toBe(0);
    }
  });
});

describe('the header on a phone', () => {
  it('holds the bell and the user menu on its one line at 390 px', async () => {
    const page = await app.page({ viewport: { width: 390, height: 844 } });
    await signIn(page, 'retailer', 'Rita');
    const header = await shown(page.locator('header'));
    const bar = await header.boundingBox();
    for (const control of [page.getByRole('link', { name: /Unread/ }), page.getByRole('button', { name: /user menu/ })]) {
      const box = await (await shown(control)).boundingBox();
      if (!bar || !box) throw new Error('no layout');
      expect(box.y).toBeGreaterThanOrEqual(bar.y);
      expect(box.y + box.height).toBeLessThanOrEqual(bar.y + bar.height);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
  });
});

describe('the drawer on a phone', () => {
  it('closes once an item is picked, showing the page it opened', async () => {
    const page = await app.page({ viewport: { width: 390, height: 844 } });
    await signIn(page, 'retailer', 'Rita');
    const drawer = page.getByRole('navigation', { name: 'Main navigation' });
    const item = drawer.getByRole('link', { name: 'Fleet Monitoring' });
    // Closed, the drawer slides out of the screen (it stays in the page).
    const onScreen = async () => {
      const box = await drawer.boundingBox();
      return box !== null && box.x + box.width > 0;
    };
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await eventually(onScreen).toBe(true);
    await item.click();
    await reachPath(page, '/fleet-monitoring/nodes?tab=LIST&limit=10&offset=0');
    await eventually(onScreen).toBe(false);
    await shown(page.getByRole('heading', { name: 'Fleet Monitoring', level: 1 }));
    // Picking the page already shown closes it too.
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await eventually(onScreen).toBe(true);
    await item.click();
    await eventually(onScreen).toBe(false);
  });
});

describe('Go Back and Cancel on a page opened directly', () => {
  it('stay in the console: Go Back opens the fleet list and Cancel the dashboard, and go back in the app otherwise', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    const rita = await app.api('retailer');
    const id = (await rita.call(nodeEndpoints.list, { query: { limit: 1, offset: 0 } })).deployments[0].id;
    // A bookmark or an e-mail link: the page before is not the console's.
    await page.goto('about:blank');
    await page.goto(`${app.url}/fleet-monitoring/nodes/${id}?tab=LOCATION`);
    await page.getByRole('button', { name: 'Go Back' }).click();
    await reachPath(page, '/fleet-monitoring/nodes?limit=10&offset=0');
    await page.goto('about:blank');
    await page.goto(`${app.url}/user/settings`);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await reachPath(page, '/');
    await shown(page.getByRole('heading', { name: 'Welcome, Rita' }));
    // Within the app, Go Back is the browser's Back.
    await page.goto(`${app.url}/fleet-monitoring/nodes?limit=10&offset=0`);
    await page.getByRole('table', { name: 'Nodes' }).getByRole('row').nth(1).click();
    await page.waitForURL(/\/fleet-monitoring\/nodes\/\d+/);
    await page.getByRole('button', { name: 'Go Back' }).click();
    await reachPath(page, '/fleet-monitoring/nodes?limit=10&offset=0');
  });
});

describe('the site label editor', () => {
  it('closes on Escape and when another tab is chosen, keeping the label', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    const rita = await app.api('retailer');
    const id = (await rita.call(nodeEndpoints.list, { query: { limit: 1, offset: 0 } })).deployments[0].id;
    await page.goto(`/fleet-monitoring/nodes/${id}?tab=LOCATION`);
    const input = page.getByRole('textbox', { name: 'Site label' });
    await (await shown(page.getByRole('button', { name: 'Edit site label' }))).click();
    await input.fill('Half typed');
    await input.press('Escape');
    await gone(input);
    await shown(page.getByRole('button', { name: 'Edit site label' }));
    await page.getByRole('button', { name: 'Edit site label' }).click();
    await shown(input);
    await page.getByRole('tab', { name: 'Event Log' }).click();
    await gone(input);
    expect(await page.getByText('Half typed').count()).toBe(0);
  });
});

describe('the 404 page', () => {
  it('answers an unknown path with the message and a way back to the dashboard', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    for (const path of ['/nothing-here', '/virtual-power-plants/no/such/page']) {
      await page.goto(path);
      await shown(page.getByText('This page could not be found.', { exact: true }));
      expect(pathOf(page)).toBe(path);
    }
    await page.getByRole('link', { name: 'Back to Dashboard', exact: true }).click();
    await reachPath(page, '/');
    await shown(page.getByRole('heading', { name: 'Welcome, Rita' }));
    await eventually(() => page.title()).toBe('Dashboard | VPP Console');
  });

  it('asks for a login first at an unknown path, then shows the 404 page there', async () => {
    const page = await app.page();
    await page.goto('/nothing-here');
    await shown(page.getByRole('heading', { name: 'Log in' }));
    await logIn(page, 'retailer');
    await shown(page.getByText('This page could not be found.', { exact: true }));
    expect(pathOf(page)).toBe('/nothing-here');
  });

  it('shows /password paths it does not know without signing in', async () => {
    const page = await app.page();
    for (const path of ['/password/anything', '/password/reset/nope/deeper']) {
      await page.goto(path);
      await shown(page.getByText('This page could not be found.', { exact: true }));
      await shown(page.getByRole('link', { name: 'Back to Dashboard', exact: true }));
      expect(await page.getByLabel('Username or email').count()).toBe(0);
      // In the login shell, under the logo.
      expect(await page.getByRole('heading', { name: 'VPP Console' }).isVisible()).toBe(true);
      await eventually(() => page.title()).toBe('Page not found | VPP Console');
    }
    await page.getByRole('link', { name: 'Back to Dashboard', exact: true }).click();
    await reachPath(page, '/');
    await shown(page.getByRole('heading', { name: 'Log in' }));
    await eventually(() => page.title()).toBe('Log in | VPP Console');
  });
});

describe('old routes', () => {
  it.each([
    ['/fleet-status', ['/fleet-monitoring', '/fleet-monitoring/nodes']],
    ['/fleet-status/42', ['/fleet-monitoring/nodes/42']],
    ['/trading/dispatches', ['/virtual-power-plants/dispatches']],
    ['/trading/dispatches/7', ['/virtual-power-plants/dispatches/7']],
    ['/customers', ['/customers/manage']],
  ])('%s redirects through %j', async (from, via) => {
    const page = await app.page();
    // Records every client-side change of the URL, so the route taken can be checked.
    await page.addInitScript(() => {
      const w = window as unknown as { __paths: string[] };
      w.__paths = [];
      let current = location.pathname + location.search;
      for (const method of ['pushState', 'replaceState'] as const) {
        const original = history[method].bind(history);
        history[method] = (data, unused, url) => {
          original(data, unused, url);
          const now = location.pathname + location.search;
          if (now !== current) w.__paths.push(now);
          current = now;
        };
      }
    });
    await signIn(page, 'retailer', 'Rita');
    await page.goto(from);
    const to = via[via.length - 1];
    await reachPath(page, to);
    await shown(page.getByRole('navigation', { name: 'Main navigation' }));
    expect(await page.evaluate(() => (window as unknown as { __paths: string[] }).__paths)).toEqual(via);
    // The back button skips the old address: the redirect replaced it.
    await page.goBack();
    await reachPath(page, '/');
  });
});

describe('the time zone banner', () => {
  const BANNER = 'Your user configured timezone differs from your browsers current timezone';

  it('appears when the browser is in another time zone, links to the settings and can be dismissed', async () => {
    const page = await app.page({ timezoneId: 'Australia/Perth' });
    await signIn(page, 'retailer', 'Rita');
    const banner = page.getByRole('alert').filter({ hasText: BANNER });
    await shown(banner);
    expect(await banner.textContent()).toMatch(new RegExp(`^${BANNER}\\b`));

    const link = banner.getByRole('link', { name: 'Change your timezone in User Settings' });
    expect(await link.getAttribute('href')).toBe('/user/settings');
    await link.click();
    await reachPath(page, '/user/settings');
    await shown(page.getByRole('heading', { name: 'User Settings' }));

    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await gone(banner);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dashboard' }).click();
    await shown(page.getByRole('heading', { name: 'Welcome, Rita' }));
    expect(await page.getByText(BANNER).count()).toBe(0);
    // Dismiss is remembered across a reload (issue 34).
    await page.reload();
    await shown(page.getByRole('heading', { name: 'Welcome, Rita' }));
    await shown(page.getByRole('navigation', { name: 'Main navigation' }));
    expect(await page.getByText(BANNER).count()).toBe(0);
  });

  it('does not appear when the browser is in the account time zone', async () => {
    const page = await app.page({ timezoneId: 'Australia/Sydney' });
    await signIn(page, 'retailer', 'Rita');
    // The account is loaded once the welcome shows; the banner would follow in the same render.
    await page.getByRole('button', { name: 'User menu' }).click();
    await shown(page.getByRole('menu').getByText('Sunrise Energy'));
    expect(await page.getByText(BANNER).count()).toBe(0);
  });
});
