import { z } from 'zod';
import { okReply } from '../api/envelope.ts';
import { bodyId, pagingFields } from '../api/inputs.ts';
import { SUPPORT_MESSAGES } from './messages.ts';

/** What a support request is about; the help desk sorts tickets by it. */
export const SUPPORT_CATEGORIES = ['NODE', 'VPP_OR_EVENT', 'ACCOUNT_AND_ACCESS', 'BILLING', 'OTHER'] as const;
export type SupportCategory = (typeof SUPPORT_CATEGORIES)[number];

export const SUPPORT_CATEGORY_LABELS: Readonly<Record<SupportCategory, string>> = {
  NODE: 'A node',
  VPP_OR_EVENT: 'A VPP or event',
  ACCOUNT_AND_ACCESS: 'Account and access',
  BILLING: 'Billing',
  OTHER: 'Something else',
};

export const SUPPORT_LIMITS = { subject: 150, description: 5000, name: 200, email: 254, phone: 30 } as const;

// Single-line fields end up in e-mail headers (the subject, the reply-to name and address): a line
// break there would start a header of its own.
const singleLine = /^[^\r\n]*$/;

/** The console's own support form; the contact details start as the account's. */
export const supportRequestBody = z.object({
  subject: z
    .string({ error: SUPPORT_MESSAGES.subjectRequired })
    .trim()
    .min(1, SUPPORT_MESSAGES.subjectRequired)
    .max(SUPPORT_LIMITS.subject, SUPPORT_MESSAGES.subjectTooLong)
    .regex(singleLine, SUPPORT_MESSAGES.subjectOneLine),
  category: z.enum(SUPPORT_CATEGORIES, { error: SUPPORT_MESSAGES.categoryRequired }),
  /** A node of the caller's organisation's fleet; its id, NMI and serial travel with the request. */
  nodeId: bodyId('The node id').nullable().optional(),
  description: z
    .string({ error: SUPPORT_MESSAGES.descriptionRequired })
    .trim()
    .min(1, SUPPORT_MESSAGES.descriptionRequired)
    .max(SUPPORT_LIMITS.description, SUPPORT_MESSAGES.descriptionTooLong),
  contactName: z
    .string({ error: SUPPORT_MESSAGES.nameRequired })
    .trim()
    .min(1, SUPPORT_MESSAGES.nameRequired)
    .max(SUPPORT_LIMITS.name, SUPPORT_MESSAGES.nameTooLong)
    .regex(singleLine, SUPPORT_MESSAGES.nameRequired),
  contactEmail: z
    .string({ error: SUPPORT_MESSAGES.emailInvalid })
    .trim()
    .max(SUPPORT_LIMITS.email, SUPPORT_MESSAGES.emailInvalid)
    .email(SUPPORT_MESSAGES.emailInvalid),
  contactPhone: z
    .string({ error: SUPPORT_MESSAGES.phoneInvalid })
    .trim()
    .max(SUPPORT_LIMITS.phone, SUPPORT_MESSAGES.phoneInvalid)
    .regex(/^[0-9+() .-]*$/, SUPPORT_MESSAGES.phoneInvalid)
    .optional()
    .default(''),
});
export type SupportRequestBody = z.input<typeof supportRequestBody>;

/** One of the user's requests as the page lists it. */
export const supportRequest = z.object({
  id: z.number(),
  /** What the user quotes to the help desk; also in the e-mail's subject. */
  reference: z.string(),
  subject: z.string(),
  category: z.enum(SUPPORT_CATEGORIES),
  nodeId: z.number().nullable(),
  createdAt: z.number(),
});
export type SupportRequest = z.infer<typeof supportRequest>;

export const supportRequestReply = okReply(supportRequest);

export const supportRequestListQuery = z.object(pagingFields(100, 10));
export const supportRequestListReply = okReply(z.object({ requests: z.array(supportRequest), total: z.number() }));

/** How the page works here: an external form to frame (SUPPORT_FORM_URL), or the console's own. */
export const supportSettingsReply = okReply(
  z.object({
    formUrl: z.string().nullable(),
    maxRequestsPerHour: z.number(),
  }),
);
