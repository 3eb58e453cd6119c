// Plan screens in Chromium against the real server: a time-of-use plan created through the one plan
// form, refused while its two periods overlap, accepted once they do not, landing on the plan's own
// page (its code URL-encoded); and the server's own refusal of a duplicate name merged into the form.
import { PLAN_MESSAGES } from '@vpp/shared/plans/messages';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gone, pathOf, reachPath, shown, signIn, useApp } from './support/fixtures.ts';

const app = useApp();

async function choose(page: Page, combobox: Locator, option: string) {
  await combobox.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Types an HH:MM field digit by digit, as a user does: the input puts the colon in. */
async function typeTime(field: Locator, digits: string) {
  await field.fill('');
  await field.pressSequentially(digits);
}

/** Fills the New Plan form as a time-of-use plan on Ausgrid with two periods every day: base 00:00–`baseEnd`, peak 16:00–23:59. */
async function fillTouPlan(page: Page, name: string, code: string, baseEnd: string) {
  const form = page.getByRole('form', { name: 'New Plan' });
  await form.getByRole('textbox', { name: 'Plan Name' }).fill(name);
  await form.getByRole('textbox', { name: 'Plan Code' }).fill(code);
  await choose(page, form.getByRole('combobox', { name: 'Plan Type' }), 'Time of Use');
  await choose(page, form.getByRole('combobox', { name: 'Network' }), 'Ausgrid');
  await form.getByRole('button', { name: 'Commencement Date' }).click();
  await page.getByRole('button', { name: /^15 / }).first().click();
  await form.getByRole('textbox', { name: /Daily Charge/ }).fill('1.1');
  await form.getByRole('textbox', { name: /Feed In Tariff/ }).fill('0.05');
  await form.getByRole('group', { name: 'Rate 1' }).getByRole('textbox', { name: /Price/ }).fill('0.21');
  await form.getByRole('group', { name: 'Rate 2' }).getByRole('textbox', { name: /Price/ }).fill('0.45');
  const [base, peak] = [form.getByRole('group', { name: 'Period 1' }), form.getByRole('group', { name: 'Period 2' })];
  await typeTime(base.getByRole('textbox', { name: 'Start' }), '0000');
  await typeTime(base.getByRole('textbox', { name: 'End' }), baseEnd);
  await typeTime(peak.getByRole('textbox', { name: 'Start' }), '1600');
  await typeTime(peak.getByRole('textbox', { name: 'End' }), '2359');
  for (const period of [base, peak]) for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']) await period.getByText(day, { exact: true }).click();
  await expect(base.getByRole('textbox', { name: 'End' }).inputValue()).resolves.toBe(`${baseEnd.slice(0, 2)}:${baseEnd.slice(2)}`);
}

describe('plans', () => {
  it("creates a TOU plan with two periods: refused while they overlap, then saved, landing on the plan's page", async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Plans' }).click();
    await reachPath(page, '/customers/plans?limit=10&offset=0');
    await (await shown(page.getByRole('link', { name: 'New Plan' }))).click();
    await reachPath(page, '/customers/plans/new');

    const code = `E2E/TOU ${Date.now()}`;
    await fillTouPlan(page, 'Evening Peak Saver', code, '1800');
    const form = page.getByRole('form', { name: 'New Plan' });
    await form.getByRole('button', { name: 'Create Plan' }).click();
    const refused = await shown(form.getByRole('alert', { name: PLAN_MESSAGES.newPlanErrors }));
    await shown(refused.getByText(PLAN_MESSAGES.overlapping));
    await shown(page.getByText(PLAN_MESSAGES.correctErrors));
    expect(pathOf(page)).toBe('/customers/plans/new');

    const baseEnd = form.getByRole('group', { name: 'Period 1' }).getByRole('textbox', { name: 'End' });
    await typeTime(baseEnd, '1600');
    await form.getByRole('button', { name: 'Create Plan' }).click();
    await shown(page.getByText(PLAN_MESSAGES.created));
    await reachPath(page, `/customers/plans/${encodeURIComponent(code)}`);
    await shown(page.getByRole('heading', { name: 'Evening Peak Saver' }));
    const view = page.getByRole('form', { name: 'Plan' });
    await expect(view.getByRole('textbox', { name: 'Plan Code' }).inputValue()).resolves.toBe(code);
    await expect(view.getByRole('group', { name: 'Rate 2' }).getByRole('textbox', { name: /Price/ }).inputValue()).resolves.toBe('0.4500');
    await expect(view.getByRole('textbox', { name: 'Plan Name' }).getAttribute('readonly')).resolves.not.toBeNull();
    await gone(view.getByRole('button', { name: 'Save Plan' }));

    // The list finds it by its code.
    await page.goto(`/customers/plans?search=${encodeURIComponent(code)}`);
    const table = await shown(page.getByRole('table', { name: 'Plans' }));
    await shown(table.getByText(code));
  });

  it("merges the server's refusal of a duplicate name into the edit form, under 'Plan Errors'", async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.goto('/customers/plans?sort=name&order=asc&limit=10&offset=0');
    const rows = (await shown(page.getByRole('table', { name: 'Plans' }))).getByRole('row');
    await shown(rows.nth(2));
    const taken = (await rows.nth(1).locator('td').first().locator('p').first().textContent()) ?? '';
    await rows.nth(2).click();
    await (await shown(page.getByRole('link', { name: 'Edit', exact: true }))).click();
    const form = page.getByRole('form', { name: 'Plan' });
    const name = await shown(form.getByRole('textbox', { name: 'Plan Name' }));
    await name.fill(taken);
    await form.getByRole('button', { name: 'Save Plan' }).click();
    await shown(form.getByText(PLAN_MESSAGES.duplicateName));
    await shown(page.getByText(PLAN_MESSAGES.planErrors).first());
    expect(pathOf(page)).toMatch(/\/edit$/);
  });
});
