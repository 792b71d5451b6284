// The `conformance` command's definition; what it does is in src/conformance/ (a client of the
// API of its own), loaded only when the command runs.
import type { Command } from 'commander';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerConformance(program: Command): void {
  program
    .command('conformance')
    .description(
      'prove an implementation of the API (staging, a sandbox, this one) against the spec, rule by rule; uses the global --client-id/--client-secret (or CREDIT_SANDBOX_CLIENT_ID/_SECRET) and --json. Exit 0: every check that could run passed; 1: a departure; 2: could not run. See docs/conformance.md',
    )
    .option('--target <url>', 'the base URL of the API under test, ending in /v3')
    .option(
      '--webhook-listen <host:port>',
      "the kit's webhook receiver (default: an ephemeral port on 127.0.0.1)",
    )
    .option(
      '--webhook-public-url <url>',
      'the URL the target calls to reach the receiver (a tunnel in front of it)',
    )
    .option('--report <file.json>', 'write the JSON report here')
    .option('--junit <file.xml>', 'write JUnit XML here')
    .option(
      '--only <ids>',
      'run only these check ids or globs (comma-separated, repeatable; an area name selects the area)',
      collect,
    )
    .option('--skip <ids>', 'skip these check ids or globs (comma-separated, repeatable)', collect)
    .option(
      '--timeout <duration>',
      'how long to wait for a move the target makes by itself before skipping (default 30s)',
    )
    .option(
      '--delivery-wait <duration>',
      'how long to wait for a webhook delivery whose cause happened before failing (default: --timeout, at least 30s)',
    )
    .option(
      '--compare <url>',
      'a second target: run the same requests there and list every structural difference',
    )
    .option('--compare-client-id <id>', "the second target's client id (default: --client-id)")
    .option(
      '--compare-client-secret <secret>',
      "the second target's client secret (default: --client-secret)",
    )
    .option(
      '--seed <text>',
      'make the generated CPFs and external ids reproducible (default: random per run)',
    )
    .option('--list', 'print the checks (id, mode needed, title) and exit')
    .action(async (opts: Record<string, unknown>, command: Command) => {
      const globals = command.optsWithGlobals<{ clientId?: string; clientSecret?: string; json?: boolean }>();
      const { conformanceCommand } = await import('../conformance/command.js');
      const code = await conformanceCommand({
        ...opts,
        clientId: globals.clientId ?? (process.env.CREDIT_SANDBOX_CLIENT_ID || undefined),
        clientSecret: globals.clientSecret ?? (process.env.CREDIT_SANDBOX_CLIENT_SECRET || undefined),
        json: Boolean(globals.json),
      });
      await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
      process.exit(code);
    });
}
