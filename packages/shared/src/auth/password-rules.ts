import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MIN_LENGTH } from '../constants.ts';

/** The requirements listed beside every new-password field (spec 1 §5). */
export const PASSWORD_REQUIREMENTS = [
  { key: 'common', text: 'Not too common' },
  { key: 'length', text: `At least ${PASSWORD_MIN_LENGTH} characters` },
  { key: 'classes', text: 'At least 3 of: lower case, upper case, digits, special characters' },
] as const;
export type PasswordRequirement = (typeof PASSWORD_REQUIREMENTS)[number]['key'];

// The 49,000 most common passwords of the zxcvbn-ts project, lower case.
const COMMON = new Set<string>(dictionary['passwords-common']);

/** The requirements a candidate password fails; an empty list means it is acceptable. */
export function passwordFailures(password: string): PasswordRequirement[] {
  const failures: PasswordRequirement[] = [];
  if (COMMON.has(password.toLowerCase())) failures.push('common');
  if (password.length < PASSWORD_MIN_LENGTH) failures.push('length');
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(password)).length;
  if (classes < 3) failures.push('classes');
  return failures;
}

/** One sentence naming what a rejected password lacks, for a 400 reply. */
export function describePasswordFailures(failures: readonly PasswordRequirement[]): string {
  const parts = failures.map((f) => {
    if (f === 'common') return 'is too common';
    if (f === 'length') return `must have at least ${PASSWORD_MIN_LENGTH} characters`;
    return 'must use at least 3 of lower case, upper case, digits and special characters';
  });
  return `The password ${parts.join(', ')}.`;
}
