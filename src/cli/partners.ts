import type { Command } from 'commander';
import { parseDuration } from '../engine/clock.js';
import { action, UsageError } from './context.js';

interface NewPartner {
  id: string;
  name: string;
  expires_at: string | null;
  client_id: string;
  client_secret: string;
  clock: { now: string; frozen: boolean };
}

interface Partner {
  id: string;
  name: string;
  created_at: string;
  expires_at: string | null;
  clock: { now: string; frozen: boolean };
}

/** `--ttl 2h` as the API's `expires_in` (seconds). */
function ttlSeconds(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined || ms < 1000) {
    throw new UsageError(`--ttl must be a duration such as 90s, 30m, 2h or 7d; got "${text}"`);
  }
  return ms / 1000;
}

const lifetime = (expiresAt: string | null) => (expiresAt ? `expires ${expiresAt}` : 'no lifetime');

/** `partners create | list | extend | delete`: isolated workspaces (parallel CI jobs take one each). */
export function registerPartners(program: Command): void {
  const partners = program.command('partners').description('isolated partners (workspaces)');
  partners
    .command('create')
    .description('create an isolated partner and print its first credential')
    .option('--name <name>', 'a name to recognise it by')
    .option('--clock <mode>', "running | frozen (default: the server's --clock)")
    .option(
      '--ttl <duration>',
      "its lifetime (real time), e.g. 2h: then it is removed with all its data (default: the server's --partner-ttl)",
    )
    .action(
      action(async ({ client, out }, opts: { name?: string; clock?: string; ttl?: string }) => {
        const body: Record<string, string | number> = {};
        if (opts.name) body.name = opts.name;
        if (opts.clock) body.clock = opts.clock;
        if (opts.ttl !== undefined) body.expires_in = ttlSeconds(opts.ttl);
        const partner = await client.call<NewPartner>('POST', '/v3/sandbox/partners', { body });
        out.result(partner, () => [
          `partner ${partner.id} (${partner.name}), clock ${partner.clock.frozen ? 'frozen' : 'running'} at ${partner.clock.now}, ${lifetime(partner.expires_at)}`,
          `  client_id      ${partner.client_id}`,
          `  client_secret  ${partner.client_secret}   (shown only now)`,
          '',
          'Use it:',
          `  export CREDIT_SANDBOX_CLIENT_ID=${partner.client_id}`,
          `  export CREDIT_SANDBOX_CLIENT_SECRET=${partner.client_secret}`,
        ]);
        return undefined;
      }),
    );

  partners
    .command('list')
    .description('the partners created with this credential, newest first (never their secrets)')
    .action(
      action(async ({ client, out }) => {
        const page = await client.call<{ data: Partner[] }>('GET', '/v3/sandbox/partners', {
          query: { limit: 100 },
        });
        out.result(page.data, () =>
          page.data.length
            ? page.data.map(
                (p) =>
                  `${p.id}  ${p.name}  created ${p.created_at}  ${lifetime(p.expires_at)}  clock ${p.clock.now} (${p.clock.frozen ? 'frozen' : 'running'})`,
              )
            : ['no partners created with this credential yet (credit-sandbox partners create)'],
        );
        return undefined;
      }),
    );

  partners
    .command('extend <id>')
    .description('give a partner (this one, or one it created) a new lifetime from now')
    .requiredOption('--ttl <duration>', 'the new lifetime (real time), e.g. 2h')
    .action(
      action(async ({ client, out }, id: string, opts: { ttl: string }) => {
        const partner = await client.call<Partner>(
          'PATCH',
          `/v3/sandbox/partners/${encodeURIComponent(id)}`,
          {
            body: { expires_in: ttlSeconds(opts.ttl) },
          },
        );
        out.result(partner, () => `partner ${partner.id} (${partner.name}) ${lifetime(partner.expires_at)}`);
        return undefined;
      }),
    );

  partners
    .command('delete <id>')
    .description('delete a partner (this one, or one it created) and all its data, at once')
    .action(
      action(async ({ client, out }, id: string) => {
        await client.call('DELETE', `/v3/sandbox/partners/${encodeURIComponent(id)}`);
        out.result({ id, deleted: true }, () => `partner ${id} deleted with all its data`);
        return undefined;
      }),
    );
}
