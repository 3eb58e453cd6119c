import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { KIT_DESIGNER_PERMISSION } from './permissions.ts';
import { kitDesign, kitDesignReply, kitEmailBody, kitEmailReply, kitOptionsQuery, kitOptionsReply } from './schemas.ts';

/** The kit designer's calls (spec 2 §7). */
export const kitDesignerEndpoints = defineEndpoints('kit-designer', {
  options: endpoint({
    method: 'GET',
    access: 'read',
    path: '/ordering/kit-options',
    summary: 'The catalogue of inverter and battery types, optionally only those fitting one inverter type or one battery type',
    permission: KIT_DESIGNER_PERMISSION,
    query: kitOptionsQuery,
    reply: kitOptionsReply,
  }),
  design: endpoint({
    method: 'POST',
    access: 'read',
    path: '/ordering/design',
    summary: 'Checks a kit design against the rules: the order of parts, or the errors per field',
    permission: KIT_DESIGNER_PERMISSION,
    body: kitDesign,
    reply: kitDesignReply,
  }),
  email: endpoint({
    method: 'POST',
    access: 'write',
    path: '/ordering/email',
    summary: "E-mails a design's order to the caller and the organisation's ordering address",
    permission: KIT_DESIGNER_PERMISSION,
    body: kitEmailBody,
    reply: kitEmailReply,
  }),
});
