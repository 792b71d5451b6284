import { z } from '@hono/zod-openapi';
import { ALL_EVENT_PATTERNS } from '../../engine/event-types.js';
import { DateTime } from './common.js';

export const EventSchema = z
  .object({
    id: z.string().openapi({ example: 'evt_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
    type: z.string().openapi({ example: 'customer.created' }),
    timestamp: DateTime,
    data: z.record(z.string(), z.unknown()),
  })
  .openapi('Event');

export const EventPattern = z.enum(ALL_EVENT_PATTERNS as [string, ...string[]]);
