import { z } from 'zod';

/** Every failure the API answers: a machine code, and a message a person can act on. */
export const errorReplySchema = z.object({
  status: z.literal('ERROR'),
  error: z.string(),
  message: z.string(),
  data: z.object({
    message: z.string(),
    /** A form's refusals by field path (`rates.0.blocks.1.price`), where the form has fields (the plan form). */
    errors: z.record(z.string(), z.string()).optional(),
    /** A form's refusals that belong to no one field (overlapping periods). */
    non_field_errors: z.array(z.string()).optional(),
  }),
});
export type ErrorReply = z.infer<typeof errorReplySchema>;

/** `{status: 'OK', data}`: the envelope of the spec's replies (`data.keys`, `data.id`…). */
export function okReply<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('OK'), data });
}

/** A reply that only says the call worked. */
export const statusReply = z.object({ status: z.literal('OK') });
export type StatusReply = z.infer<typeof statusReply>;
