import { z } from 'zod';
import { idOf, type JsonObject } from '../store/record-rules.js';

/** The shape of one job kind's payload, declared where its handler is registered (`Engine.handle`). */
export type JobPayloadSchema = z.ZodType<JsonObject>;

/**
 * A payload of row ids, e.g. `idsPayload({ loan_id: 'ln_' })`, plus any further fields given:
 * every field the handler reads, and nothing else.
 */
export function idsPayload(
  ids: Record<string, string>,
  more: Record<string, z.ZodType<JsonObject[string]>> = {},
): JobPayloadSchema {
  const shape: Record<string, z.ZodType<JsonObject[string]>> = { ...more };
  for (const [field, prefix] of Object.entries(ids)) shape[field] = idOf(prefix);
  return z.strictObject(shape) as unknown as JobPayloadSchema;
}
