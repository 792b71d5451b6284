import type { Command } from 'commander';
import { action, UsageError } from './context.js';

interface ResetResult {
  deleted: number;
  clock: { now: string; frozen: boolean };
}

/**
 * `reset --yes`: wipes the partner's data and puts its clock back at the real time — the way out
 * after a clock jump too far (a clock never moves back otherwise). Credentials survive.
 */
export function registerReset(program: Command): void {
  program
    .command('reset')
    .description("wipe this partner's data (customers, loans, webhooks, events…) and start its clock over")
    .option('--yes', 'confirm: the data cannot be recovered')
    .action(
      action(async ({ client, out }, opts: { yes?: boolean }) => {
        if (!opts.yes) {
          throw new UsageError(
            'reset deletes every customer, offer, loan, webhook endpoint, delivery and event of this partner (its credentials stay). Run it again with --yes to confirm.',
          );
        }
        const result = await client.call<ResetResult>('POST', '/v3/sandbox/reset');
        out.result(result, () => [
          `reset: ${result.deleted} records deleted`,
          `clock back at ${result.clock.now}  (${result.clock.frozen ? 'frozen' : 'running'})`,
        ]);
        return undefined;
      }),
    );
}
