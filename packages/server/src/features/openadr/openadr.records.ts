import { PASSWORD } from '../../test/harness.ts';
import type { RecordMaker } from '../../test/record-owner.ts';

/** A record of the openadr area for the generated access-control and read-only-key matrices (test/records.ts gathers them). */
export const RECORD_MAKERS: Record<string, RecordMaker> = {
  // A VEN written by their OpenADR client (an API key with OpenADR scopes, through the VTN's token).
  'openadr-ven': async (h, org) => {
    const password = Buffer.from(PASSWORD).toString('base64');
    const key = await h.app.inject({
      method: 'POST',
      url: `/account/api-keys?password=${password}`,
      headers: org.auth,
      payload: { keyName: 'Their VEN', openadrScopes: ['read_all', 'write_vens'] },
    });
    const { keyId, key: secret } = key.json().data;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: String(keyId), client_secret: secret });
    const token = await h.app.inject({
      method: 'POST',
      url: '/openadr3/3.0.1/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    const ven = await h.app.inject({
      method: 'POST',
      url: '/openadr3/3.0.1/vens',
      headers: { authorization: `Bearer ${token.json().access_token}` },
      payload: { venName: `Their VEN ${org.id}` },
    });
    return Number(String(ven.json().id).slice(4));
  },
};
