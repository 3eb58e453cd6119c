import type { PermissionRequirement } from '../permissions/registry.ts';

/** Grid-credit billing (spec 3 §6): the monthly summary, the transaction search and its CSV downloads. */
export const GRIDCREDITS_VIEW = 'fleet.billing.gridcredits.view' satisfies PermissionRequirement;
/** The organisation's invoices from the platform (spec 3 §6): the invoice table and the PDFs. */
export const INVOICES_VIEW = 'fleet.myReposit.billing' satisfies PermissionRequirement;
/**
 * Marking an invoice paid or unpaid: an administrator of the organisation who sees the invoices
 * (fleet.administrator grants every permission, so it alone suffices; the spec names no finer one).
 */
export const INVOICES_MARK_PAID = { allOf: ['fleet.myReposit.billing', 'fleet.administrator'] } as const satisfies PermissionRequirement;
/** Asking for a download link: either billing permission (the download route checks its own again when the link is opened). */
export const BILLING_DOWNLOAD = { anyOf: ['fleet.billing.gridcredits.view', 'fleet.myReposit.billing'] } as const satisfies PermissionRequirement;
