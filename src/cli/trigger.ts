// The `trigger` command: checks its arguments and runs the stages of the event's recipe until it fires.
import type { Command } from 'commander';
import { ALL_EVENT_TYPES, type EventType } from '../engine/event-types.js';
import { action, UsageError } from './context.js';
import { OVERRIDABLE, parseOverrides } from './trigger-overrides.js';

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
        // The recipes and the CPF choice (the offer tiers, the finance module) load only here,
        // so that every other command starts without them.
        const [{ chooseCpf }, { trigger }] = await Promise.all([
          import('./trigger-cpf.js'),
          import('./trigger-run.js'),
        ]);
        return trigger(client, type as EventType, chooseCpf(opts.cpf, overrides), overrides, out);
      }),
    );
}
