import { expect, it } from 'vitest';
import { NUMBER_BYTES, Pieces } from './csv.ts';

it('writes every number exactly as String does: rounded telemetry values digit by digit, any other through String', () => {
  const values = [0, -0, 1, -1, 0.001, -0.001, 0.5, 10, 100, 999.999, 1e9 - 0.001, 1e9, 1e12, 0.1 + 0.2, 1e-7, 1e21, -5e-324, 2.5e-5, Number.MAX_VALUE];
  // A fixed pseudo-random sequence: values rounded to 3 decimals over twelve orders of size, and some not rounded.
  let seed = 12345;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  for (let i = 0; i < 200_000; i++) {
    const scale = 10 ** Math.floor(next() * 12 - 3);
    values.push(Math.round((next() - 0.5) * scale * 1000) / 1000);
    if (i % 10 === 0) values.push((next() - 0.5) * scale);
  }
  const pieces = new Pieces();
  const out: Buffer[] = [];
  for (const v of values) {
    const full = pieces.room(NUMBER_BYTES + 1);
    if (full) out.push(Buffer.from(full));
    pieces.number(v);
    pieces.byte(10);
  }
  out.push(Buffer.from(pieces.take() ?? new Uint8Array()));
  expect(Buffer.concat(out).toString('utf8')).toBe(values.map((v) => `${v}\n`).join(''));
});
