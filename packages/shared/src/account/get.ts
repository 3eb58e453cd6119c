import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { okReply } from '../api/envelope.ts';
import { account } from './schemas.ts';

/**
 * Reading the signed-in account (`accountEndpoints.get`), in a module of its own: every screen's shell
 * reads the account, and importing the whole account area's endpoints there put the API keys' schemas
 * (and ipaddr.js) on the login page (issue 30 item 3).
 */
export const accountGet = defineEndpoints('account', {
  get: endpoint({ method: 'GET', access: 'read', path: '/account', summary: 'The signed-in account', permission: null, reply: okReply(account) }),
}).get;
