import { expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { gstOf } from './billing.invoices.service.ts';
import { formatAbn, money } from './billing.pdf.ts';
import { isValidAbn } from './billing.settings.ts';

it('checks the supplier ABN by the mod-89 rule when the settings load', () => {
  expect(isValidAbn('51824753556')).toBe(true);
  expect(isValidAbn('53004085616')).toBe(true);
  expect(isValidAbn('51824753557')).toBe(false);
  expect(isValidAbn('5182475355')).toBe(false);
  expect(isValidAbn('5182475355a')).toBe(false);
  expect(loadConfig({ BILLING_SUPPLIER_ABN: '53 004 085 616' }).BILLING_SUPPLIER_ABN).toBe('53004085616');
  expect(loadConfig({}).BILLING_SUPPLIER_ABN).toBe('51824753556');
  expect(() => loadConfig({ BILLING_SUPPLIER_ABN: '12 345 678 901' })).toThrow('BILLING_SUPPLIER_ABN: must be an ABN');
  expect(() => loadConfig({ BILLING_NODE_FEE_CENTS: '2.5' })).toThrow('BILLING_NODE_FEE_CENTS');
});

it('rounds GST once per invoice, half up to the cent, and prints money and ABNs', () => {
  expect([gstOf(0), gstOf(4), gstOf(5), gstOf(14), gstOf(15), gstOf(3000), gstOf(12345)]).toEqual([0, 0, 1, 1, 2, 300, 1235]);
  expect([money(0), money(123456), money(-15)]).toEqual(['$0.00', '$1,234.56', '-$0.15']);
  expect(formatAbn('51824753556')).toBe('51 824 753 556');
});
