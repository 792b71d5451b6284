// The `serve` command: its definition (options in serve-options.ts, hosted-safety.ts); what it does
// is in serve-action.ts, loaded when it runs so that other commands and `--help` skip the server's
// modules.
import type { Command } from 'commander';
import { hostedSafetyOptions } from './hosted-safety.js';
import { DEFAULT_RATE_LIMIT, serveOptions } from './serve-options.js';
import { tenancyOptions } from './tenancy-options.js';

export { DEFAULT_RATE_LIMIT };

export function registerServe(program: Command): void {
  const serve = serveOptions(
    program.command('serve', { isDefault: true }).description('start the sandbox HTTP server'),
  ).action(async (opts: Record<string, string | undefined>) => {
    const { serve } = await import('./serve-action.js');
    await serve(opts);
  });
  // Added after the chain: commander reads every option at parse time.
  hostedSafetyOptions(serve);
  tenancyOptions(serve);
}
