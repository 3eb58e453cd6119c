import { describe, expect, it } from 'vitest';
import { isValidNmiWithChecksum, nmiCheckDigit } from './nmi.ts';

// The worked examples of AEMO's NMI Procedure (the checksum appendix).
const AEMO_EXAMPLES: [string, number][] = [
  ['2001985732', 8],
  ['2001985733', 6],
  ['3075621875', 8],
  ['3075621876', 6],
  ['4316854005', 9],
  ['4316854006', 7],
  ['6305888444', 6],
  ['6350888444', 2],
  ['7001888333', 8],
  ['7102000001', 7],
  ['NAAAMYS582', 6],
  ['NBBBX11110', 0],
  ['NBBBX11111', 8],
  ['NCCC519495', 5],
  ['NGGG000055', 4],
  ['QAAAVZZZZZ', 3],
  ['QCDWW00010', 2],
  ['SMVEW00085', 8],
  ['VAAA000065', 7],
  ['VAAA000066', 5],
  ['VAAA000067', 2],
  ['VAAASTY576', 8],
  ['VCCCX00009', 1],
  ['VEEEX00009', 1],
  ['VKTS786150', 2],
  ['VKTS867150', 5],
  ['VKTS871650', 7],
  ['VKTS876105', 7],
  ['VKTS876150', 3],
  ['VKTS876510', 8],
];

describe('nmiCheckDigit', () => {
  it.each(AEMO_EXAMPLES)('gives %s the check digit %i, as in the AEMO procedure', (nmi, digit) => {
    expect(nmiCheckDigit(nmi)).toBe(digit);
  });

  it('reads lower-case letters as their capitals', () => {
    expect(nmiCheckDigit('qcdww00010')).toBe(2);
    expect(nmiCheckDigit('vkts876510')).toBe(8);
  });
});

describe('isValidNmiWithChecksum', () => {
  it.each(AEMO_EXAMPLES)('accepts %s followed by its check digit %i', (nmi, digit) => {
    expect(isValidNmiWithChecksum(`${nmi}${digit}`)).toBe(true);
  });

  it('refuses every other check digit', () => {
    for (const [nmi, digit] of AEMO_EXAMPLES) {
      for (let d = 0; d <= 9; d++) if (d !== digit) expect(isValidNmiWithChecksum(`${nmi}${d}`), `${nmi}${d}`).toBe(false);
    }
  });

  it('refuses an NMI of the wrong length, with a letter as check digit, or with other characters', () => {
    for (const nmi of ['', '2001985732', '200198573288', 'QAAAVZZZZZX', 'QAAA-ZZZZZ3', 'QAAAVZZZZ 3']) {
      expect(isValidNmiWithChecksum(nmi), nmi).toBe(false);
    }
  });
});
