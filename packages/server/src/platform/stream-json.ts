import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { z } from 'zod';

/** A reply with more items than this in one list or record is streamed, not built in one piece. */
export const STREAM_ITEMS = 1000;
/** Items encoded between two turns of the event loop (a few milliseconds of work). */
const BATCH = 250;
/** List items encoded in one call (zod costs mostly per call) between two turns of the event loop. */
const LIST_BATCH = 500;

/** The number of items in the largest list or record of a reply, looking three levels down. */
export function largestCollection(value: unknown, depth = 0): number {
  if (value === null || typeof value !== 'object' || depth > 3) return 0;
  const items = Array.isArray(value) ? value : Object.values(value);
  let most = items.length;
  for (const v of items.length > 50 ? items.slice(0, 1) : items) most = Math.max(most, largestCollection(v, depth + 1));
  return most;
}

/** The schema inside optional, nullable, default and readonly wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault || s instanceof z.ZodReadonly) s = s.unwrap() as z.ZodType;
  return s;
}

/**
 * The JSON of a reply, encoded by its schema exactly as the serializer would (unknown keys left out,
 * every value checked), as text chunks: lists and records are encoded a batch at a time, and the
 * event loop gets a turn between batches, so a large reply never holds the server.
 */
export async function* encodeJsonChunks(schema: z.ZodType, value: unknown): AsyncGenerator<string> {
  const s = unwrap(schema);
  if (value === null || value === undefined || !(s instanceof z.ZodObject || s instanceof z.ZodArray || s instanceof z.ZodRecord)) {
    yield JSON.stringify(z.encode(schema, value as never));
    return;
  }
  if (s instanceof z.ZodObject) {
    if (typeof value !== 'object' || Array.isArray(value)) throw new Error('The reply is not an object.');
    yield '{';
    let first = true;
    for (const [key, field] of Object.entries(s.shape as Record<string, z.ZodType>)) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined && unwrap(field) !== field && !(field instanceof z.ZodDefault)) continue;
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      yield* encodeJsonChunks(field, v);
    }
    yield '}';
    return;
  }
  if (s instanceof z.ZodArray) {
    const item = s.element as z.ZodType;
    // A list is encoded a batch per call: zod's cost is mostly per call, not per item.
    const items = value as unknown[];
    const batchOf = z.array(item);
    yield '[';
    for (let i = 0; i < items.length; i += LIST_BATCH) {
      const text = JSON.stringify(z.encode(batchOf, items.slice(i, i + LIST_BATCH) as never));
      if (text.length > 2) yield `${i ? ',' : ''}${text.slice(1, -1)}`;
      if (i + LIST_BATCH < items.length) await yieldToLoop();
    }
    yield ']';
    return;
  }
  const item = (s as z.ZodRecord).valueType as z.ZodType;
  const entries = Object.entries(value as object);
  yield '{';
  for (let i = 0; i < entries.length; i += BATCH) {
    let text = '';
    for (let j = i; j < Math.min(i + BATCH, entries.length); j++) {
      const [k, v] = entries[j];
      text += `${j ? ',' : ''}${JSON.stringify(k)}:${JSON.stringify(z.encode(item, v as never))}`;
    }
    yield text;
    if (i + BATCH < entries.length) await yieldToLoop();
  }
  yield '}';
}
