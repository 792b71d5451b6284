// What `trigger` does once its arguments are checked: runs the stages of the event's recipe until it fires.
import type { EventType } from '../engine/event-types.js';
import type { SandboxClient } from './client.js';
import { FailedError, type Output } from './context.js';
import type { SandboxEvent } from './events.js';
import { RetryingClient } from './retrying-client.js';
import type { Overrides } from './trigger-overrides.js';
import { type Journey, RECIPES, STAGES, type Stage } from './trigger-stages.js';

/**
 * Creates what `type` needs (a customer with `cpf`, …) and drives it until the event fires. Its
 * calls follow the retry recipe (RetryingClient), so a partner's fault rules — a lost answer, a
 * 503, a reset — slow it down without stopping it or leaving a second object behind.
 */
export async function trigger(
  plain: SandboxClient,
  type: EventType,
  cpf: string,
  overrides: Overrides,
  out: Output,
): Promise<number> {
  const client = new RetryingClient(plain, {
    attempts: 8,
    timeoutMs: 15_000,
    onRetry: (what) => out.progress(`  ↻ ${what}`),
  });
  const latest = async () =>
    (await client.call<{ data: SandboxEvent[] }>('GET', '/v3/sandbox/events', { query: { type, limit: 1 } }))
      .data[0];
  const baseline = (await latest())?.id;
  const journey: Journey = {
    client,
    cpf,
    overrides,
    async check() {
      if (journey.fired) return true;
      const newest = await latest();
      if (newest && newest.id !== baseline) journey.fired = newest;
      return journey.fired !== undefined;
    },
  };
  for (const name of RECIPES[type]) {
    const stage: Stage = STAGES[name];
    out.progress(`→ ${stage.label}`);
    await stage.run(journey);
    if (await journey.check()) break;
  }
  const fired = journey.fired;
  if (!fired)
    throw new FailedError(`${type} did not fire (the customer's profile may force another outcome)`);
  const objects = {
    customer_id: journey.customer?.id ?? null,
    credit_offer_id: journey.offer?.id ?? null,
    loan_id: journey.loan?.id ?? null,
  };
  out.result({ event: fired, objects }, () => [
    `✓ ${fired.type} fired: ${fired.id} at ${fired.timestamp}`,
    ...Object.entries(objects)
      .filter(([, id]) => id !== null)
      .map(([name, id]) => `  ${name.padEnd(16)} ${id}`),
  ]);
  return 0;
}
