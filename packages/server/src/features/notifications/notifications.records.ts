import type { RecordMaker } from '../../test/record-owner.ts';
import { notifyUser } from './notifications.service.ts';

/** A record of the notifications area for the generated access-control and read-only-key matrices (test/records.ts gathers them). */
export const RECORD_MAKERS: Record<string, RecordMaker> = {
  notification: async (h, org) => {
    await notifyUser(h.ctx, org.userId, { summary: 'Their notification', body: 'Theirs alone.' });
    return (await h.app.inject({ method: 'GET', url: '/account/notifications', headers: org.auth })).json().data.notifications[0].id;
  },
};
