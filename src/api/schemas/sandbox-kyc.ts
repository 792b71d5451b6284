import { z } from '@hono/zod-openapi';

export const KycTypeParam = z.object({
  customer_id: z.string().openapi({ param: { name: 'customer_id', in: 'path' } }),
  type: z.string().openapi({ param: { name: 'type', in: 'path' }, example: 'selfie' }),
});

export const KycFeedbackBody = z
  .object({
    message: z.string().trim().min(1).max(1000).optional().openapi({
      example: 'The document photo is cut off; send the whole card.',
      description: 'Feedback shown in the KYC item `message`; a generic one when omitted',
    }),
  })
  .strict()
  .openapi('KycFeedbackRequest');

export const CompleteBiometricsBody = z
  .object({ outcome: z.enum(['approved', 'rejected']) })
  .strict()
  .openapi('CompleteBiometricsRequest');
