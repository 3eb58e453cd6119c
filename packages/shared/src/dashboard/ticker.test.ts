import { expect, it } from 'vitest';
import { tickerText } from './ticker.ts';

it('words a dispatch on the ticker by its state and the sign of its power (spec 2 §4)', () => {
  const text = (state: 'UPCOMING' | 'INPROGRESS', realPowerP: number) => tickerText({ powerstation: { name: 'Harbour' }, state, realPowerP });
  expect([text('UPCOMING', 5), text('UPCOMING', -5), text('UPCOMING', 0)]).toEqual([
    'Harbour is due to charge',
    'Harbour is due to discharge',
    'Harbour is due to lockout',
  ]);
  expect([text('INPROGRESS', 0.1), text('INPROGRESS', -0.1), text('INPROGRESS', 0)]).toEqual([
    'Harbour is charging',
    'Harbour is discharging',
    'Harbour is locked out',
  ]);
});
