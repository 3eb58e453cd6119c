import { DEMO_ORGANISATIONS } from '@vpp/shared/demo';
import { z } from 'zod';
import { defineSettings } from '../../config.ts';

// The platform's invoices (issue 15; docs/operations.md lists the settings with their defaults).

/**
 * The ABN check (the ATO's rule): subtract 1 from the first digit, weight the 11 digits by
 * 10, 1, 3, 5, …, 19, and the sum must be a multiple of 89.
 */
export function isValidAbn(abn: string): boolean {
  if (!/^\d{11}$/.test(abn)) return false;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const sum = [...abn].reduce((a, ch, i) => a + (Number(ch) - (i === 0 ? 1 : 0)) * weights[i], 0);
  return sum % 89 === 0;
}

const billingSettings = {
  /** The organisation that runs the platform and issues its invoices: its billing administrators alone set an invoice paid (the market's operating organisation when unset). */
  BILLING_OPERATOR_ORGANISATION: z.string().trim().min(1).max(200).optional(),
  /** Billing (issue 15): the platform's monthly fee per node under management and per dispatch run, integer cents excluding GST. */
  BILLING_NODE_FEE_CENTS: z.coerce.number().int().min(0).max(100_000_000).default(250),
  BILLING_DISPATCH_FEE_CENTS: z.coerce.number().int().min(0).max(100_000_000).default(1500),
  /** The supplier on the tax invoices, and its ABN (11 digits, checked by the ABN's mod-89 rule). */
  BILLING_SUPPLIER_NAME: z.string().trim().min(1).max(200).default('VPP Console Pty Ltd'),
  BILLING_SUPPLIER_ABN: z
    .string()
    .transform((v) => v.replace(/\s+/g, ''))
    .refine(isValidAbn, 'must be an ABN: 11 digits passing the mod-89 check')
    .default('51824753556'),
};
defineSettings(billingSettings, (c) => ({
  billingOperatorOrganisation: c.BILLING_OPERATOR_ORGANISATION ?? c.MARKET_IMPORT_ORGANISATION ?? (c.demo ? DEMO_ORGANISATIONS[0].name : null),
}));

declare module '../../config.ts' {
  interface AreaSettings extends z.infer<z.ZodObject<typeof billingSettings>> {
    /** The organisation that issues the invoices (its billing administrators alone set one paid). */
    billingOperatorOrganisation: string | null;
  }
}
