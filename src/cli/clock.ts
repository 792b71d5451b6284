import type { Command } from 'commander';
import { action, UsageError } from './context.js';

interface ClockView {
  now: string;
  frozen: boolean;
}

const show = (clock: ClockView) => `${clock.now}  (${clock.frozen ? 'frozen' : 'running'})`;

/** Longer jumps need `--yes`: a typo must not age every loan by years. */
const MAX_UNCONFIRMED_DAYS = 366;
const DAY_MS = 86_400_000;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS } as const;
/** An ISO 8601 date or date-time (Date.parse alone reads "35" as the year 2035). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The body of `POST /sandbox/clock/advance` for what the user typed: a duration (`35d`) or an
 * ISO date-time. Anything else — a bare number above all, the `d` forgotten — is a usage error.
 */
export function advanceBody(target: string): { by: string } | { to: string } {
  if (/^\d{1,7}[smhd]$/.test(target)) return { by: target };
  if (/^\d+$/.test(target)) {
    throw new UsageError(
      `"${target}" has no unit: did you mean ${target}d? Durations are 90s, 15m, 2h, 35d; or give an ISO date-time like 2026-12-01T00:00:00Z.`,
    );
  }
  if (ISO_DATE_TIME.test(target) && !Number.isNaN(Date.parse(target))) {
    return { to: new Date(Date.parse(target)).toISOString() };
  }
  throw new UsageError(
    `"${target}" is neither a duration (90s, 15m, 2h, 35d) nor a date-time (2026-12-01T00:00:00Z)`,
  );
}

/** One of the argument, `--to` and `--by`: what to advance to or by. */
export function advanceTarget(given: string | undefined, opts: { to?: string; by?: string }): string {
  const chosen = [given, opts.to, opts.by].filter((value): value is string => value !== undefined);
  if (chosen.length !== 1) {
    throw new UsageError(
      chosen.length === 0
        ? 'clock advance takes a duration (35d) or a date-time (2026-12-01T00:00:00Z), as the argument or with --by / --to'
        : 'clock advance takes one of: the argument, --by <duration>, --to <date-time>',
    );
  }
  const target = chosen[0] as string;
  if (opts.to !== undefined && /^\d+[smhd]?$/.test(target)) {
    throw new UsageError(
      `--to takes a date-time like 2026-12-01T00:00:00Z; for a duration use --by ${target}`,
    );
  }
  if (opts.by !== undefined && ISO_DATE_TIME.test(target)) {
    throw new UsageError(`--by takes a duration like 35d; to move to a date-time use --to ${target}`);
  }
  return target;
}

function durationMs(by: string): number {
  return Number(by.slice(0, -1)) * UNIT_MS[by.slice(-1) as keyof typeof UNIT_MS];
}

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
    .argument('[duration-or-time]', 'a duration like 90s, 15m, 2h, 35d, or an ISO date-time to move to')
    .option('--to <date-time>', 'the ISO date-time to move to (the same as giving it as the argument)')
    .option('--by <duration>', 'a duration like 35d (the same as giving it as the argument)')
    .option('--yes', `confirm a jump of more than ${MAX_UNCONFIRMED_DAYS} days (a clock never moves back)`)
    .description('move the clock forward; every timed job on the way runs, in order')
    .action(
      action(
        async (
          { client, out },
          given: string | undefined,
          opts: { yes?: boolean; to?: string; by?: string },
        ) => {
          const body = advanceBody(advanceTarget(given, opts));
          if (!opts.yes) {
            const now = Date.parse((await client.call<ClockView>('GET', '/v3/sandbox/clock')).now);
            const to = 'to' in body ? Date.parse(body.to) : now + durationMs(body.by);
            const days = (to - now) / DAY_MS;
            if (days > MAX_UNCONFIRMED_DAYS) {
              throw new UsageError(
                `advancing ${Math.round(days)} days would move the partner clock to ${new Date(to).toISOString()}, and a clock never moves back (only \`credit-sandbox reset\` starts it over). Add --yes if you mean it.`,
              );
            }
          }
          const view = await client.call<ClockView>('POST', '/v3/sandbox/clock/advance', { body });
          out.result(view, () => `clock advanced to ${show(view)}`);
          return undefined;
        },
      ),
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
