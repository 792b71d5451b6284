import { z } from '@hono/zod-openapi';
import { ALL_EVENT_PATTERNS } from '../../engine/event-types.js';
import { DELIVERY_STATUSES } from '../../store/webhook-records.js';
import { MAX_URL_LENGTH } from '../../webhooks/endpoint-url.js';
import { DEFAULT_EXPIRE_CURRENT_IN, MAX_EXPIRE_CURRENT_IN } from '../../webhooks/endpoints.js';
import { DateTime } from './common.js';

const EndpointId = z.string().openapi({ example: 'we_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' });

const Url = z.string().min(1).max(MAX_URL_LENGTH).openapi({
  description:
    'HTTPS address receiving deliveries. Plain http only for loopback hosts and hosts in `--webhook-http-hosts`.',
  example: 'https://partner.example.com/webhooks/credit',
});

const Events = z
  .array(z.string().min(1).max(100))
  .max(ALL_EVENT_PATTERNS.length)
  .openapi({
    description: `Subscribed patterns: \`*\`, \`<resource>.*\` or exact event names. Empty or omitted = every event. Valid: ${ALL_EVENT_PATTERNS.join(', ')}`,
    example: ['customer.*', 'loan.active'],
  });

const Description = z.string().max(500).openapi({ example: 'production listener' });
const Status = z.enum(['active', 'disabled']);

export const WebhookEndpointSchema = z
  .object({
    id: EndpointId,
    url: z.string().url().openapi({ example: 'https://partner.example.com/webhooks/credit' }),
    events: z.array(z.string()),
    description: z.string(),
    status: Status,
    created_at: DateTime,
    updated_at: DateTime,
  })
  .openapi('WebhookEndpoint');

export const NewWebhookEndpointSchema = WebhookEndpointSchema.extend({
  secret: z.string().openapi({
    description: 'HMAC signing secret (`whsec_` + base64). Returned only here and on rotation.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  }),
}).openapi('NewWebhookEndpoint');

export const CreateWebhookEndpointBody = z
  .object({ url: Url, events: Events.optional(), description: Description.optional() })
  .openapi('CreateWebhookEndpointRequest');

export const UpdateWebhookEndpointBody = z
  .object({
    url: Url.optional(),
    events: Events.optional(),
    description: Description.optional(),
    status: Status.optional().openapi({ description: '`disabled` pauses deliveries without deleting' }),
  })
  .openapi('UpdateWebhookEndpointRequest');

export const RotateSecretBody = z
  .object({
    expire_current_in: z
      .number()
      .int()
      .min(0)
      .max(MAX_EXPIRE_CURRENT_IN)
      .default(DEFAULT_EXPIRE_CURRENT_IN)
      .openapi({
        description:
          'Seconds (partner clock) the current secret keeps signing beside the new one; 0 drops it now',
        example: DEFAULT_EXPIRE_CURRENT_IN,
      }),
  })
  .openapi('RotateWebhookSecretRequest');

export const RotatedSecretSchema = z
  .object({
    id: EndpointId,
    secret: z.string().openapi({ example: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD' }),
    previous_secret_expires_at: DateTime,
  })
  .openapi('RotatedWebhookSecret');

export const DeletedWebhookEndpointSchema = z
  .object({ id: EndpointId, deleted: z.literal(true) })
  .openapi('DeletedWebhookEndpoint');

export const EndpointParams = z.object({
  webhook_endpoint_id: z.string().openapi({ param: { name: 'webhook_endpoint_id', in: 'path' } }),
});

const DeliveryStatus = z.enum(DELIVERY_STATUSES);

export const DeliveryAttemptSchema = z
  .object({
    attempt_number: z.number().int(),
    attempted_at: DateTime.openapi({ description: 'Partner-clock due time of the attempt' }),
    status_code: z.number().int().nullable().openapi({ description: 'null when no HTTP answer came' }),
    duration_ms: z.number().int(),
    response_body: z
      .string()
      .nullable()
      .openapi({ description: "The first 4 KB of the receiver's answer; null when no answer came" }),
    error: z.string().nullable(),
    next_attempt_at: DateTime.nullable(),
  })
  .openapi('DeliveryAttempt');

export const ChaosActSchema = z
  .object({
    act: z.enum(['delayed', 'dropped', 'duplicate']),
    at: DateTime.openapi({ description: 'Partner-clock time of the act' }),
    delay_ms: z
      .number()
      .int()
      .nullable()
      .openapi({ description: '`delayed`: how long the first attempt waits' }),
    attempt_number: z.number().int().nullable().openapi({ description: '`dropped`: the attempt not sent' }),
    duplicate_delivery_id: z
      .string()
      .nullable()
      .openapi({ description: '`duplicate`: the delivery sending the event a second time' }),
  })
  .openapi('ChaosAct');

export const DeliverySchema = z
  .object({
    id: z.string().openapi({ example: 'dlv_0c1d9b8e4f6a7c5d2e1b0a9f8e7d3f2a' }),
    event_id: z.string(),
    event_type: z.string(),
    endpoint_id: z.string(),
    trigger: z.enum(['event', 'redeliver', 'duplicate']).openapi({
      description: '`duplicate`: sent a second time on purpose by webhook chaos',
    }),
    status: DeliveryStatus,
    next_attempt_at: DateTime.nullable(),
    attempts: z.array(DeliveryAttemptSchema),
    chaos: z.array(ChaosActSchema).openapi({ description: 'What webhook chaos did to this delivery' }),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .openapi('Delivery');

export const DeliveryQuery = z.object({
  event_id: z
    .string()
    .min(1)
    .optional()
    .openapi({ param: { name: 'event_id', in: 'query' } }),
  endpoint_id: z
    .string()
    .min(1)
    .optional()
    .openapi({ param: { name: 'endpoint_id', in: 'query' } }),
  status: DeliveryStatus.optional().openapi({ param: { name: 'status', in: 'query' } }),
  trigger: z
    .enum(['event', 'redeliver', 'duplicate'])
    .optional()
    .openapi({
      param: { name: 'trigger', in: 'query' },
      description: '`duplicate`: the copies webhook chaos sent',
    }),
});

export const RedeliverBody = z
  .object({
    endpoint_id: z
      .string()
      .min(1)
      .optional()
      .openapi({ description: 'Only this endpoint; omitted = every active endpoint whose patterns match' }),
  })
  .openapi('RedeliverRequest');

export const RedeliveryResultSchema = z
  .object({ event_id: z.string(), deliveries: z.array(DeliverySchema) })
  .openapi('Redelivery');

const Rate = z.number().min(0).max(1);

export const ChaosBody = z
  .object({
    duplicate_rate: Rate.optional().openapi({
      description:
        'Probability (0..1) that a successful delivery is sent a second time with the same `webhook-id`',
      example: 0.2,
    }),
    drop_rate: Rate.optional().openapi({
      description:
        'Probability (0..1) that an attempt fails before it is sent (recorded as dropped, retried on the normal schedule)',
      example: 0.1,
    }),
    max_delay: z
      .string()
      .regex(/^\d{1,7}(s|m|h)$/, 'a duration like "30s", "15m" or "1h"')
      .nullable()
      .optional()
      .openapi({
        description: 'Each first attempt waits a random time up to this on the partner clock (at most 1h)',
        example: '30s',
      }),
    reorder: z.boolean().optional().openapi({
      description:
        'Deliveries of this endpoint may overtake each other inside the delay window (needs max_delay)',
    }),
  })
  .strict()
  .openapi('WebhookChaosRequest');

export const ChaosSchema = z
  .object({
    endpoint_id: EndpointId,
    enabled: z.boolean(),
    duplicate_rate: z.number(),
    drop_rate: z.number(),
    max_delay: z.string().nullable(),
    reorder: z.boolean(),
  })
  .openapi('WebhookChaos');
