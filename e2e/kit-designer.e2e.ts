// The kit designer in Chromium: the demo installer designs a three-phase site with two systems (one
// all-in-one), reaches Summary and e-mails the order; a battery of another inverter shows its error,
// and the server's errors attach to their fields.
import { KIT_MESSAGES } from '@vpp/shared/kit-designer/messages';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gone, shown, signIn, useApp } from './support/fixtures.ts';
import { waitForMail } from './support/mail.ts';
import { NO_FLEET } from './support/server.ts';

const app = useApp(NO_FLEET);

async function openBuilder(page: Page) {
  await signIn(page, 'installer', 'Ingrid');
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Kit Builder' }).click();
  await page.waitForURL(/\/ordering\/kit-designer$/);
  await shown(page.getByRole('heading', { name: 'Kit Builder' }));
  await shown(page.getByText('Design checklist'));
  const start = page.getByRole('button', { name: 'Get Started' });
  await vi_enabled(start);
  await start.click();
  return shown(page.getByRole('dialog', { name: 'Kit Builder' }));
}

/** Waits until a button is enabled (the catalogue has loaded). */
async function vi_enabled(button: Locator) {
  await shown(button);
  await button.and(button.page().locator(':enabled')).waitFor();
}

async function choose(page: Page, combobox: Locator, option: string) {
  await combobox.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('the kit designer', () => {
  it('designs a three-phase site with a hybrid and an all-in-one, reaches Summary and e-mails the order', async () => {
    const page = await app.page();
    const dialog = await openBuilder(page);

    // Site Details.
    await dialog.getByText('Three-phase', { exact: true }).click();
    await dialog.getByRole('textbox', { name: 'New inverters' }).fill('2');
    await dialog.getByRole('button', { name: 'Next' }).click();

    // Configure Inverters: system 1, a three-phase hybrid with a battery and solar.
    const first = await shown(dialog.getByRole('group', { name: 'System 1' }));
    const second = dialog.getByRole('group', { name: 'System 2' });
    await choose(page, first.getByRole('combobox', { name: 'Inverter' }), 'Sungrow SH10RT hybrid (10 kW, three-phase)');
    await choose(page, first.getByRole('combobox', { name: 'Battery' }), 'Sungrow SBR128 (12.8 kWh)');
    // Another inverter keeps the chosen battery, which it does not take: the error shows.
    await choose(page, first.getByRole('combobox', { name: 'Inverter' }), 'Fronius Symo GEN24 10.0 Plus (three-phase)');
    await shown(first.getByText(KIT_MESSAGES.batteryIncompatible));
    await choose(page, first.getByRole('combobox', { name: 'Inverter' }), 'Sungrow SH10RT hybrid (10 kW, three-phase)');
    await gone(first.getByText(KIT_MESSAGES.batteryIncompatible));
    await first.getByRole('switch', { name: 'Solar connected' }).check();
    expect(await first.getByRole('switch', { name: 'Solar connected' }).isChecked()).toBe(true);

    // System 2: an all-in-one, whose battery list has no Not Connected; choosing the solar phases connects solar.
    await choose(page, second.getByRole('combobox', { name: 'Inverter' }), 'Tesla Powerwall 2 AC (all-in-one)');
    await second.getByRole('combobox', { name: 'Battery' }).click();
    await shown(page.getByRole('option', { name: 'Tesla Powerwall 2 (13.5 kWh)' }));
    expect(await page.getByRole('option', { name: KIT_MESSAGES.notConnected }).count()).toBe(0);
    await page.getByRole('option', { name: 'Tesla Powerwall 2 (13.5 kWh)' }).click();
    expect(await second.getByRole('switch', { name: 'Solar connected' }).isChecked()).toBe(false);
    await choose(page, second.getByRole('combobox', { name: 'Solar phases' }), 'Three-phase');
    expect(await second.getByRole('switch', { name: 'Solar connected' }).isChecked()).toBe(true);

    await dialog.getByRole('button', { name: 'Next' }).click();
    const table = await shown(dialog.getByRole('table', { name: 'Kit order' }));
    await shown(table.getByRole('row', { name: /^3L2S Monitoring header: three-phase grid meter with 2 solar-connected systems 1 3 — 3$/ }));
    await shown(table.getByRole('row', { name: /^SH10RT Sungrow SH10RT hybrid/ }));
    await shown(table.getByRole('row', { name: /^CT16-3P-PV / }));

    // Back returns to Configure Inverters with the design kept; Next orders it again.
    await dialog.getByRole('button', { name: 'Back' }).click();
    await shown(first);
    await dialog.getByRole('button', { name: 'Next' }).click();
    await shown(dialog.getByRole('table', { name: 'Kit order' }));

    await dialog.getByRole('textbox', { name: 'Reference notes' }).fill('Job 4411, 12 Wattle St Newtown');
    await dialog.getByRole('button', { name: 'Email order' }).click();
    await shown(dialog.getByText(KIT_MESSAGES.emailSent, { exact: true }));

    for (const to of ['installer@example.com', 'orders@bright-installations.example']) {
      const mail = await waitForMail(app, to, /^Kit order 3L2S from Ingrid Installer \(Bright Installations\)$/);
      expect(mail.text).toMatch(/\n3L2S\s+Monitoring header: three-phase grid meter with 2 solar-connected systems\s+1\s+3\s+3\n/);
      expect(mail.text).toContain('Job 4411, 12 Wattle St Newtown');
    }

    // A new order resets 'Email sent'.
    await dialog.getByRole('button', { name: 'Back' }).click();
    await dialog.getByRole('button', { name: 'Next' }).click();
    await shown(dialog.getByRole('table', { name: 'Kit order' }));
    expect(await dialog.getByText(KIT_MESSAGES.emailSent, { exact: true }).count()).toBe(0);
  });

  it('attaches the server’s errors to their fields, and closing resets the builder', async () => {
    const page = await app.page();
    const dialog = await openBuilder(page);
    // A single-phase site (the default) with a three-phase inverter.
    await dialog.getByRole('textbox', { name: 'Existing inverters' }).fill('1');
    await dialog.getByRole('button', { name: 'Next' }).click();
    const first = await shown(dialog.getByRole('group', { name: 'System 1' }));
    await choose(page, first.getByRole('combobox', { name: 'Inverter' }), 'Sungrow SH10RT hybrid (10 kW, three-phase)');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await shown(first.getByText(KIT_MESSAGES.inverterPhases));
    expect(await dialog.getByRole('table', { name: 'Kit order' }).count()).toBe(0);

    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await gone(dialog);
    await page.getByRole('button', { name: 'Get Started' }).click();
    const again = await shown(page.getByRole('dialog', { name: 'Kit Builder' }));
    expect(await again.getByRole('textbox', { name: 'Existing inverters' }).inputValue()).toBe('0');
  });
});
