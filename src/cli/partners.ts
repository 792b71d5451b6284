import type { Command } from 'commander';
import { action } from './context.js';

interface NewPartner {
  id: string;
  name: string;
  client_id: string;
  client_secret: string;
  clock: { now: string; frozen: boolean };
}

interface Partner {
  id: string;
  name: string;
  created_at: string;
  clock: { now: string; frozen: boolean };
}

/** `partners create | list`: isolated workspaces (parallel CI jobs take one each). */
export function registerPartners(program: Command): void {
  const partners = program.command('partners').description('isolated partners (workspaces)');
  partners
    .command('create')
    .description('create an isolated partner and print its first credential')
    .option('--name <name>', 'a name to recognise it by')
    .option('--clock <mode>', "running | frozen (default: the server's --clock)")
    .action(
      action(async ({ client, out }, opts: { name?: string; clock?: string }) => {
        const body: Record<string, string> = {};
        if (opts.name) body.name = opts.name;
        if (opts.clock) body.clock = opts.clock;
        const partner = await client.call<NewPartner>('POST', '/v3/sandbox/partners', { body });
        out.result(partner, () => [
          `partner ${partner.id} (${partner.name}), clock ${partner.clock.frozen ? 'frozen' : 'running'} at ${partner.clock.now}`,
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
                  `${p.id}  ${p.name}  created ${p.created_at}  clock ${p.clock.now} (${p.clock.frozen ? 'frozen' : 'running'})`,
              )
            : ['no partners created with this credential yet (credit-sandbox partners create)'],
        );
        return undefined;
      }),
    );
}
