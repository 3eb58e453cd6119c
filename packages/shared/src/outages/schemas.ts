import { z } from 'zod';
import { okReply } from '../api/envelope.ts';
import { eventWindowBody } from '../dispatches/schemas.ts';
import { GRID_OUTAGE, OUTAGE_DEFAULT_DURATION_S, OUTAGE_REASONS } from './messages.ts';

const optionalText = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text.` })
    .max(max, `${name} must be at most ${max} characters.`)
    .nullable()
    .optional();

/** `POST /grid-outage` (spec 3 §3.5): the VPP, the window, the reason and the customer app's message. */
export const createOutageBody = z.object({
  ...eventWindowBody,
  duration: eventWindowBody.duration.default(OUTAGE_DEFAULT_DURATION_S),
  outageReason: z
    .enum(OUTAGE_REASONS, { error: 'outageReason must be STORM or PLANNED.' })
    .default('STORM')
    .meta({ examples: ['STORM'] }),
  customerMessage: optionalText('customerMessage', 1000),
  messageTitle: optionalText('messageTitle', 100),
});
export type CreateOutageBody = z.input<typeof createOutageBody>;

export const outageListQuery = z.object({
  contract_type: z
    .literal(GRID_OUTAGE, { error: `contract_type must be ${GRID_OUTAGE}.` })
    .default(GRID_OUTAGE)
    .meta({ examples: [GRID_OUTAGE] }),
});

const state = z.enum(['UPCOMING', 'INPROGRESS', 'COMPLETED']);

/** A grid outage (spec 3 §3.5). `reason` is its title ('Storm Approaching' by default). */
export const outageSchema = z.object({
  id: z.number(),
  request: z.object({ startTime: z.number(), duration: z.number() }),
  reason: z.string().nullable(),
  outageReason: z.enum(OUTAGE_REASONS),
  powerstation: z.object({ id: z.number(), name: z.string() }).nullable(),
  state,
  createdAt: z.number(),
  createdBy: z.string(),
  cancelledAt: z.number().nullable(),
  customerMessage: z.string().nullable(),
});
export type GridOutage = z.infer<typeof outageSchema>;

export const outageListReply = okReply(z.object({ outages: z.array(outageSchema) }));
export const outageDetailReply = okReply(outageSchema);
export const createOutageReply = okReply(z.object({ id: z.number() }));

/** Who took part and who opted out (spec 3 §3.5). */
export const outageResponseSchema = z.object({
  responded: z.number(),
  total_deployments: z.number(),
  total_cancelled_deployments: z.number(),
  cancelled_deployments: z.array(z.object({ nmi: z.string(), deployment_uid: z.number(), cancelled_at: z.number() })),
});
export type GridOutageResponse = z.infer<typeof outageResponseSchema>;
export const outageResponseReply = okReply(outageResponseSchema);

export const nodeAppTokenReply = okReply(z.object({ token: z.string() }));
