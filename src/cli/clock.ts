import type { Command } from 'commander';
import { action, UsageError } from './context.js';

interface ClockView {
  now: string;
  frozen: boolean;
}

const show = (clock: ClockView) => `${clock.now}  (${clock.frozen ? 'frozen' : 'running'})`;

/** `clock show | advance <duration> | freeze | resume`: the partner clock. */
export function registerClock(program: Command): void {
  const clock = program.command('clock').description("read and move the partner's clock");

  clock
    .command('show')
    .description('print the partner clock')
    .action(
      action(async ({ client, out }) => {
        const view = await client.call<ClockView>('GET', '/v3/sandbox/clock');
        out.result(view, () => show(view));
        return undefined;
      }),
    );

  clock
    .command('advance')
    .argument('<duration-or-time>', 'a duration like 90s, 15m, 2h, 35d, or an ISO date-time to move to')
    .description('move the clock forward; every timed job on the way runs, in order')
    .action(
      action(async ({ client, out }, target: string) => {
        const body = /^\d{1,7}[smhd]$/.test(target)
          ? { by: target }
          : !Number.isNaN(Date.parse(target))
            ? { to: new Date(Date.parse(target)).toISOString() }
            : undefined;
        if (!body)
          throw new UsageError(`"${target}" is neither a duration (90s, 15m, 2h, 35d) nor a date-time`);
        const view = await client.call<ClockView>('POST', '/v3/sandbox/clock/advance', { body });
        out.result(view, () => `clock advanced to ${show(view)}`);
        return undefined;
      }),
    );

  for (const [name, summary] of [
    ['freeze', 'stop the clock at its current reading'],
    ['resume', 'let the clock run again from its current reading'],
  ] as const) {
    clock
      .command(name)
      .description(summary)
      .action(
        action(async ({ client, out }) => {
          const view = await client.call<ClockView>('POST', `/v3/sandbox/clock/${name}`);
          out.result(view, () => show(view));
          return undefined;
        }),
      );
  }
}
