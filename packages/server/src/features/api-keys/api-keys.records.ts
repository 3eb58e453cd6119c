import { PASSWORD } from '../../test/harness.ts';
import type { RecordMaker } from '../../test/record-owner.ts';

/** A record of the api-keys area for the generated access-control and read-only-key matrices (test/records.ts gathers them). */
export const RECORD_MAKERS: Record<string, RecordMaker> = {
  'api-key': async (h, org) => {
    const password = Buffer.from(PASSWORD).toString('base64');
    const res = await h.app.inject({ method: 'POST', url: `/account/api-keys?password=${password}`, headers: org.auth, payload: { keyName: 'Their key' } });
    return res.json().data.keyId;
  },
};
