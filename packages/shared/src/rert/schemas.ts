import { z } from 'zod';
import { okReply } from '../api/envelope.ts';
import { createDispatchBody, DISPATCH_MESSAGE_LIMITS } from '../dispatches/schemas.ts';

/** `POST /api/rert-dispatches` (spec 3 §3.4): a dispatch's request without power factor or title. */
const epoch = (name: string) =>
  z
    .number({ error: `${name} must be epoch seconds.` })
    .int(`${name} must be epoch seconds.`)
    .min(0, `${name} must be epoch seconds.`);
const rate = (name: string) =>
  z
    .number({ error: `${name} must be a number of dollars, 0 or more.` })
    .finite()
    .min(0, `${name} must be a number of dollars, 0 or more.`);

/** NER 3.20: the reserve's notice category, and the lack of reserve (LOR) condition AEMO activates it for. */
export const RERT_NOTICE_CATEGORIES = ['SHORT_NOTICE', 'MEDIUM_NOTICE', 'LONG_NOTICE'] as const;
export const RERT_LOR_CONDITIONS = ['LOR1', 'LOR2', 'LOR3'] as const;

/** Issue 33 item 3 (an addition to spec 3 §3.4): AEMO's instruction a RERT dispatch answers. */
export const rertInstructionSchema = z
  .object({
    id: z
      .string({ error: 'instruction.id must be text.' })
      .trim()
      .min(1, 'instruction.id is required.')
      .max(100, 'instruction.id must be at most 100 characters.'),
    noticeCategory: z.enum(RERT_NOTICE_CATEGORIES, { error: `instruction.noticeCategory must be one of ${RERT_NOTICE_CATEGORIES.join(', ')}.` }),
    lorCondition: z.enum(RERT_LOR_CONDITIONS, { error: `instruction.lorCondition must be one of ${RERT_LOR_CONDITIONS.join(', ')}.` }),
    preActivationTime: epoch('instruction.preActivationTime'),
    activationTime: epoch('instruction.activationTime'),
  })
  .refine((i) => i.preActivationTime <= i.activationTime, { message: 'instruction.preActivationTime must not be after instruction.activationTime.' });

/**
 * The reserve contract the RERT dispatch runs under: the reserve contracted (MW), availability
 * ($/MW per hour), pre-activation and activation ($/MWh of the contracted reserve), usage ($/MWh
 * delivered), and the customers' share of the payments (0 to 1).
 */
export const rertContractSchema = z.object({
  reference: z
    .string({ error: 'contract.reference must be text.' })
    .trim()
    .min(1, 'contract.reference is required.')
    .max(100, 'contract.reference must be at most 100 characters.'),
  contractedMw: z
    .number({ error: 'contract.contractedMw must be a number of MW above 0.' })
    .finite()
    .positive('contract.contractedMw must be a number of MW above 0.'),
  availabilityRate: rate('contract.availabilityRate'),
  preActivationRate: rate('contract.preActivationRate'),
  activationRate: rate('contract.activationRate'),
  usageRate: rate('contract.usageRate'),
  customerShare: z
    .number({ error: 'contract.customerShare must be from 0 to 1.' })
    .min(0, 'contract.customerShare must be from 0 to 1.')
    .max(1, 'contract.customerShare must be from 0 to 1.'),
});
export type RertInstruction = z.infer<typeof rertInstructionSchema>;
export type RertContract = z.infer<typeof rertContractSchema>;

export const createRertBody = createDispatchBody
  .pick({
    powerstation: true,
    startTime: true,
    duration: true,
    realPowerP: true,
    customerMessage: true,
    strategy: true,
  })
  .extend({ instruction: rertInstructionSchema.optional(), contract: rertContractSchema.optional() })
  .refine((b) => (b.instruction === undefined) === (b.contract === undefined), { message: 'instruction and contract go together: give both or neither.' })
  .refine((b) => !b.instruction || b.instruction.activationTime <= b.startTime, { message: 'instruction.activationTime must not be after startTime.' });
export type CreateRertBody = z.infer<typeof createRertBody>;

/** `POST /api/rert-dispatches/{id}/reschedule`: the new window and, optionally, a new customer message. */
export const rescheduleRertBody = z.object({
  startTime: createDispatchBody.shape.startTime,
  duration: createDispatchBody.shape.duration,
  customerAppMessage: z
    .string({ error: 'customerAppMessage must be text.' })
    .trim()
    .max(DISPATCH_MESSAGE_LIMITS.text, `customerAppMessage must be at most ${DISPATCH_MESSAGE_LIMITS.text} characters.`)
    .nullable()
    .optional()
    .meta({ examples: ['Your battery is helping the grid this evening.'] }),
});
export type RescheduleRertBody = z.infer<typeof rescheduleRertBody>;
export const rescheduleRertReply = okReply(z.object({ id: z.number() }));
