import { describe, expect, it } from 'vitest';
import { VPP_MESSAGES } from './messages.ts';
import { parsePostcodes, vppFieldErrors, vppKind, vppProblem } from './rules.ts';

describe('VPP rules', () => {
  it('derives the shown type from type and filter', () => {
    expect(vppKind({ type: 'STATIC' })).toBe('INDIVIDUAL_NODES');
    expect(vppKind({ type: 'FCAS' })).toBe('FCAS');
    expect(vppKind({ type: 'DYNAMIC', filters: { postcodes: ['2000'] } })).toBe('POSTCODE');
    expect(vppKind({ type: 'DYNAMIC', filters: { postcodes: [], state: null } })).toBe('POSTCODE');
    expect(vppKind({ type: 'DYNAMIC', filters: { postcodes: null, state: 'NSW' } })).toBe('STATE');
    expect(vppKind({ type: 'DYNAMIC', filters: { state: null } })).toBe('STATE');
  });

  it('reads comma-separated postcodes, dropping blanks and repeats', () => {
    expect(parsePostcodes(' 2000, 2042,,2000 ,')).toEqual(['2000', '2042']);
    expect(parsePostcodes('  ')).toEqual([]);
  });

  it('requires a name, and a postcode or a state by type', () => {
    expect(vppFieldErrors({ type: 'STATIC', name: ' ' })).toEqual({ name: VPP_MESSAGES.nameRequired });
    expect(vppFieldErrors({ type: 'DYNAMIC', name: '', filters: { postcodes: [] } })).toEqual({
      name: VPP_MESSAGES.nameRequired,
      postcodes: VPP_MESSAGES.postcodeRequired,
    });
    expect(vppFieldErrors({ type: 'DYNAMIC', name: 'S', filters: { state: null } })).toEqual({ state: VPP_MESSAGES.stateRequired });
    expect(vppFieldErrors({ type: 'DYNAMIC', name: 'P', filters: { postcodes: ['2000', '200', 'abcd'] } })).toEqual({
      postcodes: 'Postcodes are four digits: 200, abcd are not.',
    });
    expect(vppFieldErrors({ type: 'DYNAMIC', name: 'P', filters: { postcodes: ['2000'] } })).toEqual({});
    expect(vppFieldErrors({ type: 'STATIC', name: 'Manual', filters: { postcodes: [], state: null } })).toEqual({});
  });

  it('answers the first broken rule, name first', () => {
    expect(vppProblem({ type: 'DYNAMIC', name: '', filters: { postcodes: [] } })).toBe(VPP_MESSAGES.nameRequired);
    expect(vppProblem({ type: 'DYNAMIC', name: 'x' })).toBe(VPP_MESSAGES.postcodeOrState);
    expect(vppProblem({ type: 'DYNAMIC', name: 'x', filters: { state: 'VIC' } })).toBeNull();
  });
});
