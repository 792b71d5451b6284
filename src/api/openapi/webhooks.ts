import { ALL_EVENT_TYPES } from '../../engine/event-types.js';
import { eventDataSchema } from './event-data.js';

const SIGNATURE_HEADERS = {
  'webhook-id': {
    example: 'evt_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d',
    description: 'The event id: deduplicate on it',
  },
  'webhook-timestamp': {
    example: '1772452800',
    description: 'Seconds since the epoch (real time) when the attempt was signed',
  },
  'webhook-signature': {
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    description: 'Standard Webhooks signature: v1,base64(HMAC-SHA256(secret, id.timestamp.body))',
  },
};

/** `loan.payment_received` → `receiveLoanPaymentReceived` (see docs/openapi.md). */
export function webhookOperationId(type: string): string {
  const words = type.split(/[._]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return `receive${words.join('')}`;
}

/** OpenAPI 3.1 `webhooks`: one entry per event type, its envelope and its `data` schema. */
export function webhooksSection(): Record<string, unknown> {
  const entries: Record<string, unknown> = {};
  for (const type of ALL_EVENT_TYPES) {
    entries[type] = {
      post: {
        operationId: webhookOperationId(type),
        tags: ['Webhook events'],
        summary: `Receive ${type} at your webhook endpoint`,
        description: `Delivered to every active webhook endpoint whose \`events\` match \`${type}\`, signed with the endpoint's secret (Standard Webhooks). Answer 2xx within the timeout; other answers are retried. See /docs/webhooks.`,
        parameters: Object.entries(SIGNATURE_HEADERS).map(([name, { example, description }]) => ({
          name,
          in: 'header',
          required: true,
          description,
          schema: { type: 'string' },
          example,
        })),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                // Exactly the delivered body: the event id travels in the `webhook-id` header.
                type: 'object',
                required: ['type', 'timestamp', 'data'],
                additionalProperties: false,
                properties: {
                  type: { type: 'string', const: type, example: type },
                  timestamp: { type: 'string', format: 'date-time', example: '2026-03-02T12:00:00.000Z' },
                  data: eventDataSchema(type),
                },
              },
            },
          },
        },
        responses: { '200': { description: 'Any 2xx acknowledges the event' } },
      },
    };
  }
  return entries;
}
