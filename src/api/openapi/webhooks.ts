import { ALL_EVENT_TYPES, type EventType } from '../../engine/event-types.js';

/** The component schema each event type's `data` follows. */
function dataSchemaOf(type: EventType): string {
  if (type.startsWith('loan.')) return 'Loan';
  if (type.startsWith('credit_offer.')) return 'CreditOffer';
  if (type === 'customer.created') return 'CustomerCreatedData';
  if (type === 'customer.kyc_updated') return 'CustomerKycUpdatedData';
  return 'CustomerStatusData';
}

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

/** OpenAPI 3.1 `webhooks`: one entry per event type, its envelope and its `data` schema. */
export function webhooksSection(): Record<string, unknown> {
  const entries: Record<string, unknown> = {};
  for (const type of ALL_EVENT_TYPES) {
    entries[type] = {
      post: {
        operationId: `webhook_${type.replace('.', '_')}`,
        tags: ['Webhook events'],
        summary: `${type} (sent to your endpoint)`,
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
                type: 'object',
                required: ['id', 'type', 'timestamp', 'data'],
                properties: {
                  id: { type: 'string', example: 'evt_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' },
                  type: { type: 'string', const: type, example: type },
                  timestamp: { type: 'string', format: 'date-time', example: '2026-03-02T12:00:00.000Z' },
                  data: { $ref: `#/components/schemas/${dataSchemaOf(type)}` },
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
