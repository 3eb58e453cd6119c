import { VPP_MESSAGES } from './messages.ts';

export const VPP_TYPES = ['STATIC', 'DYNAMIC', 'FCAS'] as const;
export type VppType = (typeof VPP_TYPES)[number];

/** The type shown in the UI (spec 2 §3): manual enrolment, or automatic by postcode, state or DUID. */
export const VPP_KINDS = ['INDIVIDUAL_NODES', 'POSTCODE', 'STATE', 'FCAS'] as const;
export type VppKind = (typeof VPP_KINDS)[number];
export const VPP_KIND_LABELS: Record<VppKind, string> = { INDIVIDUAL_NODES: 'Individual Nodes', POSTCODE: 'Postcode', STATE: 'State', FCAS: 'FCAS' };

export interface VppFilters {
  postcodes?: readonly string[] | null;
  state?: string | null;
}

/** What a create or update body says about a VPP: its type, name and filter. */
export interface VppDraft {
  type: VppType;
  name?: string | null;
  filters?: VppFilters | null;
}

export type VppField = 'name' | 'postcodes' | 'state' | 'filters';

/** Which filter a DYNAMIC VPP uses: postcodes when a list is given (even empty), state when only a state is. */
function dynamicFilter(filters: VppFilters | null | undefined): 'postcodes' | 'state' | null {
  if (filters?.postcodes !== undefined && filters.postcodes !== null) return 'postcodes';
  if (filters && filters.state !== undefined) return 'state';
  return null;
}

/** The UI's type of a VPP: STATIC is Individual Nodes, DYNAMIC Postcode or State by its filter, FCAS by DUID. */
export function vppKind(vpp: { type: VppType; filters?: VppFilters | null }): VppKind {
  if (vpp.type === 'STATIC') return 'INDIVIDUAL_NODES';
  if (vpp.type === 'FCAS') return 'FCAS';
  return dynamicFilter(vpp.filters) === 'state' ? 'STATE' : 'POSTCODE';
}

/** The UI's type of a stored VPP, whose filters carry both fields: a DYNAMIC VPP with a state filters by state. */
export function storedVppKind(vpp: { type: VppType; state: string | null }): VppKind {
  if (vpp.type !== 'DYNAMIC') return vppKind(vpp);
  return vpp.state ? 'STATE' : 'POSTCODE';
}

/** Individual nodes are enrolled by hand; postcode, state and FCAS DUID automatically (spec 2 §9). */
export const enrolmentOf = (kind: VppKind) => (kind === 'INDIVIDUAL_NODES' ? 'Manual' : 'Automatic');

/** Postcodes typed comma-separated: trimmed, blanks dropped, duplicates removed. */
export function parsePostcodes(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ];
}

/** Whether a postcode is one: four digits. */
export const isPostcode = (p: string) => /^\d{4}$/.test(p);

export const VPP_NAME_MAX = 100;

/**
 * The rules of spec 2 §5 for a VPP, as one message per field that breaks one (empty when the draft
 * is valid). The server answers the first of them; the form shows each beside its field.
 */
export function vppFieldErrors(draft: VppDraft): Partial<Record<VppField, string>> {
  const errors: Partial<Record<VppField, string>> = {};
  const name = (draft.name ?? '').trim();
  if (!name) errors.name = VPP_MESSAGES.nameRequired;
  else if (name.length > VPP_NAME_MAX) errors.name = VPP_MESSAGES.nameTooLong;
  const postcodes = draft.filters?.postcodes ?? [];
  const state = draft.filters?.state ?? null;
  if (draft.type === 'STATIC') {
    if (postcodes.length || state) errors.filters = VPP_MESSAGES.staticHasNoFilter;
  } else if (draft.type === 'DYNAMIC') {
    const kind = dynamicFilter(draft.filters);
    if (postcodes.length && state) errors.filters = VPP_MESSAGES.postcodeAndState;
    else if (kind === 'postcodes') {
      const bad = postcodes.filter((p) => !isPostcode(p));
      if (!postcodes.length) errors.postcodes = VPP_MESSAGES.postcodeRequired;
      else if (bad.length) errors.postcodes = VPP_MESSAGES.invalidPostcodes(bad);
    } else if (kind === 'state') {
      if (!state) errors.state = VPP_MESSAGES.stateRequired;
    } else errors.filters = VPP_MESSAGES.postcodeOrState;
  }
  return errors;
}

/** The first broken rule of a draft, in the order name, postcodes, state, filters; null when valid. */
export function vppProblem(draft: VppDraft): string | null {
  const e = vppFieldErrors(draft);
  return e.name ?? e.postcodes ?? e.state ?? e.filters ?? null;
}
