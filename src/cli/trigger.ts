// The `trigger` command: checks its arguments and runs the stages of the event's recipe until it fires.
import type { Command } from 'commander';
import { ALL_EVENT_TYPES, type EventType } from '../engine/event-types.js';
import type { SandboxClient } from './client.js';
import { action, FailedError, type Output, UsageError } from './context.js';
import type { SandboxEvent } from './events.js';
import { chooseCpf } from './trigger-cpf.js';
import { OVERRIDABLE, type Overrides, parseOverrides } from './trigger-overrides.js';
import { type Journey, RECIPES, STAGES, type Stage } from './trigger-stages.js';

export { RECIPES };

/** `trigger <event-type>`: creates what the event needs and drives it until the event fires. */
export function registerTrigger(program: Command): void {
  program
    .command('trigger')
    .argument('<event-type>', `one of: ${ALL_EVENT_TYPES.join(', ')}`)
    .option(
      '--cpf <cpf>',
      'CPF of the customer to create (default: a fresh valid CPF whose offer takes --set amount/installments; a magic CPF forces its outcome)',
    )
    .option(
      '--set <field=value>',
      `override a field of what is created (repeatable): ${Object.keys(OVERRIDABLE).join(', ')}`,
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .description(
      'create the objects an event needs and drive them (control calls, clock advances) until it fires',
    )
    .action(
      action(async ({ client, out }, type: string, opts: { cpf?: string; set: string[] }) => {
        if (!(ALL_EVENT_TYPES as readonly string[]).includes(type)) {
          throw new UsageError(`unknown event type "${type}". Known: ${ALL_EVENT_TYPES.join(', ')}`);
        }
        const overrides = parseOverrides(opts.set);
        return trigger(client, type as EventType, chooseCpf(opts.cpf, overrides), overrides, out);
      }),
    );
}

async function trigger(
  client: SandboxClient,
  type: EventType,
  cpf: string,
  overrides: Overrides,
  out: Output,
): Promise<number> {
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
