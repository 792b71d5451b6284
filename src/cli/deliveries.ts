import type { Command } from 'commander';
import { action, UsageError } from './context.js';
import { positiveInt } from './events.js';

interface Attempt {
  attempt_number: number;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

export interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  status: string;
  next_attempt_at: string | null;
  attempts: Attempt[];
  created_at: string;
}

const STATUSES = ['pending', 'sending', 'succeeded', 'failed', 'skipped', 'cancelled'];

/** One line per delivery; times are on the partner clock, as the API reports them. */
function deliveryLine(d: Delivery): string {
  const next = d.next_attempt_at ? `, next attempt ${d.next_attempt_at}` : '';
  return `${d.id}  ${d.status.padEnd(9)} ${d.event_type.padEnd(26)} ${d.endpoint_id}  ${d.attempts.length} attempt${d.attempts.length === 1 ? '' : 's'}${next}`;
}

function attemptLine(a: Attempt): string {
  const answer = a.status_code === null ? 'no answer' : `HTTP ${a.status_code}`;
  return `  #${a.attempt_number}  ${a.attempted_at}  ${answer}  ${a.duration_ms} ms${a.error ? `  ${a.error}` : ''}`;
}

/** `deliveries list | show <id>`: the webhook delivery log. */
export function registerDeliveries(program: Command): void {
  const deliveries = program
    .command('deliveries')
    .description('the webhook delivery log (times on the partner clock)');

  deliveries
    .command('list')
    .description('deliveries, newest first, with how many attempts each took')
    .option('--event <event-id>', 'only the deliveries of this event')
    .option('--endpoint <endpoint-id>', 'only the deliveries to this endpoint')
    .option('--status <status>', STATUSES.join(' | '))
    .option('-l, --limit <n>', 'how many (1..100)', '25')
    .action(
      action(
        async (
          { client, out },
          opts: { event?: string; endpoint?: string; status?: string; limit: string },
        ) => {
          if (opts.status !== undefined && !STATUSES.includes(opts.status)) {
            throw new UsageError(`--status must be one of ${STATUSES.join(', ')}, got "${opts.status}"`);
          }
          const page = await client.call<{ data: Delivery[] }>('GET', '/v3/sandbox/deliveries', {
            query: {
              event_id: opts.event,
              endpoint_id: opts.endpoint,
              status: opts.status,
              limit: positiveInt(opts.limit, '--limit'),
            },
          });
          out.result(page.data, () => (page.data.length ? page.data.map(deliveryLine) : ['no deliveries']));
          return undefined;
        },
      ),
    );

  deliveries
    .command('show')
    .argument('<delivery-id>', 'dlv_…')
    .description('one delivery and each of its attempts')
    .action(
      action(async ({ client, out }, id: string) => {
        const d = await client.call<Delivery>('GET', `/v3/sandbox/deliveries/${encodeURIComponent(id)}`);
        out.result(d, () => [deliveryLine(d), ...d.attempts.map(attemptLine)]);
        return undefined;
      }),
    );
}
