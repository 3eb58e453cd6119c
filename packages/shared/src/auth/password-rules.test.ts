import { describe, expect, it } from 'vitest';
import { describePasswordFailures, PASSWORD_REQUIREMENTS, passwordFailures } from './password-rules.ts';

describe('passwordFailures (spec 1 §5)', () => {
  it('rejects passwords from the common-password list, whatever their case', () => {
    expect(passwordFailures('password')).toContain('common');
    expect(passwordFailures('qwerty123')).toContain('common');
    expect(passwordFailures('Qwerty123')).toContain('common');
  });

  it('rejects a password of 7 characters for its length', () => {
    expect(passwordFailures('Ab1-xyz')).toEqual(['length']);
  });

  it('rejects a password that uses only 2 of the 4 character classes', () => {
    expect(passwordFailures('abcdefgh12')).toEqual(['classes']);
  });

  it('accepts a long password with 3 classes that is not common', () => {
    expect(passwordFailures('Solar-Battery-42')).toEqual([]);
    expect(passwordFailures('abcdefgh1!')).toEqual([]);
  });
});

describe('describePasswordFailures', () => {
  it('names each requirement the password fails, in one sentence', () => {
    expect(describePasswordFailures(['common'])).toBe('The password is too common.');
    expect(describePasswordFailures(['length'])).toBe('The password must have at least 8 characters.');
    expect(describePasswordFailures(['classes'])).toBe('The password must use at least 3 of lower case, upper case, digits and special characters.');
    expect(describePasswordFailures(passwordFailures('qwerty1'))).toBe(
      'The password is too common, must have at least 8 characters, must use at least 3 of lower case, upper case, digits and special characters.',
    );
  });

  it('lists the requirements shown beside new-password fields', () => {
    expect(PASSWORD_REQUIREMENTS.map((r) => r.text)).toEqual([
      'Not too common',
      'At least 8 characters',
      'At least 3 of: lower case, upper case, digits, special characters',
    ]);
  });
});
