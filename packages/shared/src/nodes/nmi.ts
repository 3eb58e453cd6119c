/**
 * The NMI checksum of AEMO's NMI procedure: from the right, take each character's ASCII code,
 * double every second one starting with the rightmost, add up the decimal digits of the results,
 * and the check digit is (10 − sum mod 10) mod 10.
 */
export function nmiCheckDigit(nmi: string): number {
  let sum = 0;
  let double = true;
  for (let i = nmi.length - 1; i >= 0; i--) {
    let v = nmi.toUpperCase().charCodeAt(i);
    if (double) v *= 2;
    double = !double;
    for (const d of String(v)) sum += Number(d);
  }
  return (10 - (sum % 10)) % 10;
}

/** Whether a 10-character NMI with its 11th check digit is valid. */
export function isValidNmiWithChecksum(nmi11: string): boolean {
  return /^[A-Z0-9]{10}\d$/i.test(nmi11) && nmiCheckDigit(nmi11.slice(0, 10)) === Number(nmi11[10]);
}
