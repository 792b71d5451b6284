import type { Command } from 'commander';
import type { SandboxClient } from './client.js';
import { action, EXIT, FailedError, UsageError } from './context.js';

export interface SandboxEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

interface EventPage {
  data: SandboxEvent[];
  has_more: boolean;
}

/**
 * One line per event: time, type, event id, the object it is about. `clockLabel` names the clock
 * the time is on where a stream mixes it with real time (tail).
 */
export function eventLine(event: SandboxEvent, clockLabel = ''): string {
  const subject = typeof event.data.id === 'string' ? `  ${event.data.id}` : '';
  const status = typeof event.data.status === 'string' ? ` (${event.data.status})` : '';
  return `${event.timestamp}${clockLabel}  ${event.type.padEnd(26)} ${event.id}${subject}${status}`;
}

/** How tail and listen mark a partner-clock time (it can be days ahead of real time). */
export const PARTNER_CLOCK = ' (partner clock)';

/** `events list [--type] [--limit]` and `events tail [--type] [--max] [--timeout]`. */
export function registerEvents(program: Command): void {
  const events = program.command('events').description("the partner's event log");

  events
    .command('list')
    .description('recent events, newest first')
    .option('-t, --type <pattern>', 'filter: *, <resource>.* (e.g. loan.*) or an event name')
    .option('-l, --limit <n>', 'how many (1..100)', '25')
    .action(
      action(async ({ client, out }, opts: { type?: string; limit: string }) => {
        const limit = positiveInt(opts.limit, '--limit');
        const page = await client.call<EventPage>('GET', '/v3/sandbox/events', {
          query: { type: opts.type, limit },
        });
        out.result(page.data, () =>
          page.data.length > 0 ? page.data.map((event) => eventLine(event)) : ['no events'],
        );
        return undefined;
      }),
    );

  events
    .command('tail')
    .description('print new events as they happen (polls the event log)')
    .option('-t, --type <pattern>', 'filter: *, <resource>.* (e.g. loan.*) or an event name')
    .option('--max <n>', 'exit after this many events (exit 1 if --timeout comes first)')
    .option('--timeout <seconds>', 'exit after this many seconds of real time')
    .option('--interval <ms>', 'polling interval', '300')
    .action(
      action(
        async (
          { client, out },
          opts: { type?: string; max?: string; timeout?: string; interval: string },
        ) => {
          const max = opts.max === undefined ? undefined : positiveInt(opts.max, '--max');
          const timeoutMs =
            opts.timeout === undefined ? undefined : positiveInt(opts.timeout, '--timeout') * 1000;
          const intervalMs = positiveInt(opts.interval, '--interval');
          const tail = new EventTail(client, opts.type);
          await tail.start();
          let stop = false;
          process.once('SIGINT', () => {
            stop = true;
          });
          out.progress(
            `tailing ${opts.type ?? 'all'} events (Ctrl-C to stop); event times are on the partner clock…`,
          );
          const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : performance.now() + timeoutMs;
          let seen = 0;
          while (!stop && performance.now() < deadline) {
            for (const event of await tail.poll()) {
              out.line(event, eventLine(event, PARTNER_CLOCK));
              seen += 1;
              if (max !== undefined && seen >= max) return EXIT.ok;
            }
            await sleep(Math.min(intervalMs, Math.max(0, deadline - performance.now())));
          }
          if (max !== undefined && !stop) {
            throw new FailedError(
              `only ${seen} of ${max} event${max === 1 ? '' : 's'} within ${opts.timeout} s`,
            );
          }
          return EXIT.ok;
        },
      ),
    );
}

/**
 * Follows the event log: remembers the newest event seen and, on each poll, pages back (newest
 * first) until it meets it again, returning what is new in the order it happened.
 */
export class EventTail {
  private newest: string | undefined;

  constructor(
    private readonly client: SandboxClient,
    private readonly type?: string,
  ) {}

  /** Starts from now: events already in the log are not reported. */
  async start(): Promise<void> {
    const page = await this.page(undefined, 1);
    this.newest = page.data[0]?.id;
  }

  async poll(): Promise<SandboxEvent[]> {
    const fresh: SandboxEvent[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await this.page(cursor, 100);
      const stopAt = page.data.findIndex((event) => event.id === this.newest);
      fresh.push(...(stopAt >= 0 ? page.data.slice(0, stopAt) : page.data));
      if (stopAt >= 0 || !page.has_more) break;
      cursor = page.data.at(-1)?.id;
    }
    if (fresh[0]) this.newest = fresh[0].id;
    return fresh.reverse();
  }

  private page(startingAfter: string | undefined, limit: number): Promise<EventPage> {
    return this.client.call<EventPage>('GET', '/v3/sandbox/events', {
      query: { type: this.type, limit, starting_after: startingAfter },
    });
  }
}

export function positiveInt(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag} must be a whole number >= 1, got "${text}"`);
  return n;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
