import { nodeListReply, seriesReply } from '@vpp/shared/nodes/schemas';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { encodeJsonChunks, largestCollection } from './stream-json.ts';

const collect = async (schema: z.ZodType, value: unknown) => {
  const parts: string[] = [];
  for await (const p of encodeJsonChunks(schema, value)) parts.push(p);
  return parts;
};

describe('streamed JSON replies', () => {
  it('writes exactly what the serializer would, a batch at a time', async () => {
    const series = Object.fromEntries(
      Array.from({ length: 3000 }, (_, i) => [String(1_700_000_000 + i * 300), { solarPower: i / 3, meterPower: i % 7 ? -i : null }]),
    );
    const value = { status: 'OK', series };
    const parts = await collect(seriesReply, value);
    expect(parts.join('')).toBe(JSON.stringify(z.encode(seriesReply, value as never)));
    expect(parts.length).toBeGreaterThan(12);
  });

  it('leaves out what the schema does not name, as the serializer does', async () => {
    const node = { id: 1, secret_column: 'never sent' };
    const schema = z.object({ deployments: z.array(z.object({ id: z.number() })), total: z.number() });
    const text = (await collect(schema, { deployments: Array.from({ length: 1200 }, () => node), total: 1200, extra: 'no' })).join('');
    expect(text).not.toContain('never sent');
    expect(text).not.toContain('extra');
    expect(JSON.parse(text).deployments).toHaveLength(1200);
  });

  it('refuses a reply that breaks its schema rather than sending it', async () => {
    await expect(collect(nodeListReply, { deployments: [{ id: 'not a node' }], total: 1 })).rejects.toThrow();
  });

  it('finds the largest list or record in a reply', () => {
    expect(largestCollection({ status: 'OK', data: { users: Array.from({ length: 1500 }, () => ({ id: 1 })) } })).toBe(1500);
    expect(largestCollection({ status: 'OK', summary: { a: 1, b: 2 } })).toBe(2);
  });
});
