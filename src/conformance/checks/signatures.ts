// Deliveries as Standard Webhooks sends them ("Events", "Authentication" 11, secret rotation):
// the envelope, the signatures, and the two signatures of a rotation's grace period.
import { okBody } from '../context.js';
import { journey } from '../flows/journeys.js';
import { EventEnvelope, RotatedSecret } from '../spec/shapes.js';
import { expectShape } from '../spec/validate.js';
import type { Check } from '../types.js';
import { expectEqual, expectSuccess, expectTrue, fail } from '../verdict.js';
import { secretsVerifying, signaturesOf, verifies } from '../webhooks/signatures.js';
import { delivered } from './webhooks.js';

const SPEC = 'Endpoints › Webhook endpoints';

export const SIGNATURE_CHECKS: Check[] = [
  {
    id: 'webhooks.deliveries.envelope',
    title: 'every delivery is a POST of {type, timestamp, data} as JSON',
    spec: 'Events (envelope)',
    needs: 'black-box',
    async run(ctx) {
      const event = await delivered(ctx, await ctx.webhook());
      expectTrue(
        /^application\/json/i.test(event.delivery.headers['content-type'] ?? ''),
        'a delivery is not application/json',
        'application/json',
        event.delivery.headers['content-type'],
      );
      const walked = await journey(ctx, 'customer');
      for (const e of [event, ...walked.hook.events()])
        expectShape(EventEnvelope, e.delivery.json, `the envelope of ${e.type}`);
      const bad = walked.hook.deliveries().filter((d) => EventEnvelope.safeParse(d.json).success === false);
      expectEqual(
        bad.map((d) => d.raw.slice(0, 100)),
        [],
        'deliveries without the envelope',
      );
    },
  },
  {
    id: 'webhooks.signatures.verify',
    title: 'every delivery verifies with Standard Webhooks and the endpoint’s secret',
    spec: 'Events (Standard Webhooks); Authentication 11',
    needs: 'black-box',
    async run(ctx) {
      const hook = await ctx.webhook();
      await delivered(ctx, hook);
      const walked = await journey(ctx, 'customer');
      for (const [h, d] of [
        ...hook.deliveries().map((d) => [hook, d] as const),
        ...walked.hook.deliveries().map((d) => [walked.hook, d] as const),
      ]) {
        for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
          expectTrue(
            d.headers[header] !== undefined,
            `a delivery has no ${header} header`,
            header,
            Object.keys(d.headers),
          );
        }
        if (!verifies(h.secret, d))
          fail(
            'a delivery does not verify with the endpoint secret',
            'a valid v1 signature',
            d.headers['webhook-signature'],
          );
      }
    },
  },
  {
    id: 'webhooks.secret.rotate',
    title: 'rotation answers id, a new whsec_ secret and previous_secret_expires_at (default 3600 s later)',
    spec: `${SPEC} › POST /webhooks/endpoints/{webhook_endpoint_id}/secret/rotate`,
    needs: 'black-box',
    async run(ctx) {
      const hook = await ctx.webhook({ events: ['loan.error'] });
      const answer = await (await ctx.partner()).call(
        'POST',
        `/webhooks/endpoints/${hook.id}/secret/rotate`,
        { body: {} },
      );
      expectSuccess(answer, 'POST …/secret/rotate');
      const rotated = expectShape(RotatedSecret, answer.body, 'rotation answer', answer);
      expectEqual(rotated.id, hook.id, 'id of the rotation answer', answer);
      expectTrue(
        rotated.secret !== hook.secret,
        'the rotation answered the old secret',
        'a new secret',
        'the old one',
        answer,
      );
      const grace =
        (Date.parse(rotated.previous_secret_expires_at) -
          Date.parse(String((hook.created.body as Record<string, unknown>).created_at))) /
        1000;
      expectTrue(
        grace >= 3600 && grace <= 3600 + ctx.facts.timeoutMs / 1000 + 120,
        'previous_secret_expires_at is not 3600 s after the rotation',
        '≈ 3600 s',
        `${grace} s`,
        answer,
      );
    },
  },
  {
    id: 'webhooks.signatures.rotation-grace',
    title: 'during the grace period each delivery carries signatures for both secrets',
    spec: 'Events; POST …/secret/rotate',
    needs: 'black-box',
    async run(ctx) {
      const hook = await ctx.webhook({ events: ['customer.created'] });
      const rotated = okBody(
        await (await ctx.partner()).call('POST', `/webhooks/endpoints/${hook.id}/secret/rotate`, {
          body: { expire_current_in: 3600 },
        }),
        'rotate',
      );
      const event = await delivered(ctx, hook);
      expectEqual(signaturesOf(event.delivery).length, 2, 'signatures on a delivery during the grace period');
      expectEqual(
        secretsVerifying([hook.secret, String(rotated.secret)], event.delivery),
        [true, true],
        'which secrets verify (old, new)',
      );
    },
  },
  {
    id: 'webhooks.signatures.after-grace',
    title: 'once the grace period is over only the new secret signs',
    spec: 'Events; Limits (previous webhook secret grace period)',
    needs: 'controlled',
    async run(ctx) {
      const hook = await ctx.webhook({ events: ['customer.created'] });
      const rotated = okBody(
        await (await ctx.partner()).call('POST', `/webhooks/endpoints/${hook.id}/secret/rotate`, {
          body: { expire_current_in: 60 },
        }),
        'rotate',
      );
      await ctx.advance('61s');
      const event = await delivered(ctx, hook);
      expectEqual(
        secretsVerifying([hook.secret, String(rotated.secret)], event.delivery),
        [false, true],
        'which secrets verify after the grace period (old, new)',
      );
    },
  },
];
