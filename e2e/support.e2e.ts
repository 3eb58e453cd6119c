// The support page in Chromium: the console's own form sends a request about a node and shows its
// reference (and the help desk gets the e-mail); with SUPPORT_FORM_URL set, the page frames that form.
import { SUPPORT_MESSAGES } from '@vpp/shared/support/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shown, signIn, useApp } from './support/fixtures.ts';
import { HELP_DESK_HEADING, type HelpDesk, startHelpDesk } from './support/help-desk.ts';
import { waitForMail } from './support/mail.ts';
import { NO_FLEET } from './support/server.ts';

const app = useApp();

// The help desk starts first: its address is in the framed server's settings, read when that starts.
let helpDesk: HelpDesk | undefined;
const framedEnv: Record<string, string> = { ...NO_FLEET };
beforeAll(async () => {
  helpDesk = await startHelpDesk();
  framedEnv.SUPPORT_FORM_URL = helpDesk.formUrl;
});
afterAll(async () => helpDesk?.stop());
const framed = useApp(framedEnv);

describe('the support page', () => {
  it('opens from the sidebar and sends a request about a node, showing its reference', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Support' }).click();
    await page.waitForURL(/\/support-issues\?limit=10&offset=0$/);
    const form = await shown(page.getByRole('form', { name: 'Support request' }));
    await shown(page.getByText(SUPPORT_MESSAGES.noRequests));
    expect(await form.getByRole('textbox', { name: 'Email' }).inputValue()).toBe('retailer@example.com');

    await form.getByRole('textbox', { name: 'Subject' }).fill('Battery not charging');
    await form.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'A node' }).click();
    // The fleet search (every serial starts RP): the first node it lists, by its NMI and serial.
    await form.getByRole('combobox', { name: 'Node' }).fill('RP');
    const option = page.getByRole('option', { name: /· NMI \d+ · RP\d+$/ }).first();
    const label = (await (await shown(option)).textContent()) ?? '';
    const [, nmi, serial] = /· NMI (\d+) · (RP\d+)$/.exec(label) ?? [];
    await option.click();
    await form.getByRole('textbox', { name: 'Description' }).fill('The battery has stayed at 12% since yesterday morning.');
    await form.getByRole('button', { name: 'Send Request' }).click();

    const confirmation = await shown(page.getByRole('status').filter({ hasText: 'Request sent: SR-' }));
    const reference = /SR-[2-9A-Z]{8}/.exec((await confirmation.textContent()) ?? '')?.[0] ?? '';
    expect(reference).toMatch(/^SR-[2-9A-Z]{8}$/);
    await shown(page.getByRole('table', { name: 'Your support requests' }).getByRole('row', { name: new RegExp(`${reference} Battery not charging A node`) }));

    const mail = await waitForMail(app, 'support@localhost', new RegExp(`^\\[${reference}\\] Battery not charging$`));
    expect(mail.text).toContain(`NMI ${nmi}, serial ${serial}`);
    expect(mail.text).toContain('From: Rita Retailer <retailer@example.com>');
  });

  it('frames the help desk’s form when SUPPORT_FORM_URL is set', async () => {
    const page = await framed.page();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Support' }).click();
    const frame = await shown(page.getByTitle(SUPPORT_MESSAGES.frameTitle));
    expect(await frame.getAttribute('src')).toBe(helpDesk?.formUrl);
    // The content security policy lets the form's origin in: its page shows inside the console.
    await shown(page.frameLocator(`iframe[title="${SUPPORT_MESSAGES.frameTitle}"]`).getByRole('heading', { name: HELP_DESK_HEADING }));
    expect(await page.getByRole('link', { name: SUPPORT_MESSAGES.openInNewWindow }).getAttribute('href')).toBe(helpDesk?.formUrl);
    expect(await page.getByRole('form', { name: 'Support request' }).count()).toBe(0);
  });
});
