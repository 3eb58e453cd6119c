import { expect, it } from 'vitest';
import { tickerEventText, tickerText } from './ticker.ts';

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

it('words the weather and the counts on the ticker', () => {
  expect([
    tickerEventText({ type: 'CLOUD_COVER', value: 0.456 }),
    tickerEventText({ type: 'HIGH_TEMP', value: 38.24, postcode: '2000' }),
    tickerEventText({ type: 'NEWLY_COMMISSIONED', value: 1 }),
    tickerEventText({ type: 'AWAITING_COMMISSION', value: 12 }),
    tickerEventText({ type: 'NEW_CUSTOMERS', value: 0 }),
    tickerEventText({ type: 'DISPATCH', powerstation: { name: 'Harbour' }, state: 'UPCOMING', realPowerP: -2 }),
  ]).toEqual([
    'Cloud cover across the fleet is 46%',
    'High temperature of 38.2 °C in postcode 2000',
    '1 node commissioned in the last 7 days',
    '12 nodes awaiting commissioning',
    '0 new customers in the last 7 days',
    'Harbour is due to discharge',
  ]);
});
