import type { Command } from 'commander';
import { action } from './context.js';

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  description: string;
  status: string;
  secret?: string;
}

function endpointLine(e: Endpoint): string {
  const events = e.events.length ? e.events.join(',') : 'all events';
  return `${e.id}  ${e.status.padEnd(8)} ${e.url}  ${events}${e.description ? `  "${e.description}"` : ''}`;
}

/** `webhooks list | create <url> | delete <id>`: the partner's webhook endpoints. */
export function registerWebhooks(program: Command): void {
  const webhooks = program.command('webhooks').description('webhook endpoints of this partner');

  webhooks
    .command('list')
    .description('the endpoints, newest first')
    .action(
      action(async ({ client, out }) => {
        const page = await client.call<{ data: Endpoint[] }>('GET', '/v3/webhooks/endpoints', {
          query: { limit: 100 },
        });
        out.result(page.data, () => (page.data.length ? page.data.map(endpointLine) : ['no endpoints']));
        return undefined;
      }),
    );

  webhooks
    .command('create')
    .argument('<url>', 'where deliveries go, e.g. https://app.example.com/webhooks')
    .option('-e, --events <patterns>', 'comma-separated patterns, e.g. loan.*,customer.active (default: all)')
    .option('--description <text>', 'a note to recognise it by')
    .description('register an endpoint and print its signing secret (shown only now)')
    .action(
      action(async ({ client, out }, url: string, opts: { events?: string; description?: string }) => {
        const events = (opts.events ?? '')
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean);
        const endpoint = await client.call<Endpoint>('POST', '/v3/webhooks/endpoints', {
          body: { url, events, ...(opts.description ? { description: opts.description } : {}) },
        });
        out.result(endpoint, () => [
          endpointLine(endpoint),
          `  signing secret  ${endpoint.secret}   (shown only now)`,
        ]);
        return undefined;
      }),
    );

  webhooks
    .command('delete')
    .argument('<endpoint-id>', 'we_…')
    .description('delete an endpoint (its pending deliveries are cancelled)')
    .action(
      action(async ({ client, out }, id: string) => {
        const deleted = await client.call<{ id: string }>(
          'DELETE',
          `/v3/webhooks/endpoints/${encodeURIComponent(id)}`,
        );
        out.result(deleted, () => `deleted ${deleted.id ?? id}`);
        return undefined;
      }),
    );
}
