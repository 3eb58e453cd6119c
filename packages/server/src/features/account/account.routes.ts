import { account, alertEmailQuery, codePreferenceBody, mfaSettings, okReply, statusReply, timezoneQuery } from '@vpp/shared';
import type { App } from '../../app.ts';
import { caller } from '../../platform/guard.ts';
import * as service from './account.service.ts';

export async function accountRoutes(app: App) {
  app.get(
    '/account',
    { config: { permission: null }, schema: { tags: ['account'], summary: 'The signed-in account', response: { 200: okReply(account) } } },
    async (req) => ({ status: 'OK' as const, data: service.presentAccount(caller(req)) }),
  );

  app.post(
    '/account/timezone',
    {
      config: { permission: null },
      schema: { tags: ['account'], summary: "Set the account's time zone", querystring: timezoneQuery, response: { 200: statusReply } },
    },
    async (req) => {
      await service.setTimezone(app.ctx, caller(req).id, req.query.timezone);
      return { status: 'OK' as const };
    },
  );

  app.post(
    '/account/alertEmail',
    {
      config: { permission: null },
      schema: { tags: ['account'], summary: 'How often node alerts are e-mailed', querystring: alertEmailQuery, response: { 200: statusReply } },
    },
    async (req) => {
      await service.setAlertEmailFrequency(app.ctx, caller(req).id, req.query.frequency);
      return { status: 'OK' as const };
    },
  );

  app.get(
    '/account/mfa/settings',
    { config: { permission: null }, schema: { tags: ['account'], summary: 'Two-factor settings', response: { 200: okReply(mfaSettings) } } },
    async (req) => ({ status: 'OK' as const, data: service.presentMfaSettings(caller(req)) }),
  );

  app.post(
    '/auth/mfa/code-preference',
    {
      config: { permission: null },
      schema: { tags: ['account'], summary: 'Choose how two-factor codes arrive', body: codePreferenceBody, response: { 200: statusReply } },
    },
    async (req) => {
      await service.setCodePreference(app.ctx, caller(req).id, req.body.codePreference);
      return { status: 'OK' as const };
    },
  );
}
