import type { Command } from 'commander';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../domain/default-partner.js';
import { ApiCallError, SandboxClient, UnreachableError } from './client.js';
import { FailedError, UsageError } from './errors.js';
import { sandboxBaseUrl } from './urls.js';

/** Exit codes CI can rely on. */
export const EXIT = {
  ok: 0,
  /** A scenario or expectation failed, the API refused a call, or the sandbox is unreachable. */
  failed: 1,
  /** The command line is wrong (unknown command or option, bad value). */
  usage: 2,
} as const;

export { FailedError, UsageError } from './errors.js';

export const DEFAULT_URL = 'http://127.0.0.1:8080';

/** Adds the options every client command shares to the root program. */
export function addGlobalOptions(program: Command): void {
  program
    .option('--url <url>', `sandbox base URL (env CREDIT_SANDBOX_URL, default ${DEFAULT_URL})`)
    .option('--client-id <id>', 'client id (env CREDIT_SANDBOX_CLIENT_ID, default: the default partner)')
    .option('--client-secret <secret>', 'client secret (env CREDIT_SANDBOX_CLIENT_SECRET)')
    .option('--json', 'print JSON for scripts instead of text');
}

/** What a command needs: the API client and how to print. */
export interface CliContext {
  client: SandboxClient;
  out: Output;
}

/** Builds the context from the global options (flags win over the environment over the defaults). */
export function cliContext(command: Command): CliContext {
  const opts = command.optsWithGlobals<{
    url?: string;
    clientId?: string;
    clientSecret?: string;
    json?: boolean;
  }>();
  const env = process.env;
  const client = new SandboxClient({
    baseUrl: sandboxBaseUrl(
      opts.url ?? (env.CREDIT_SANDBOX_URL || DEFAULT_URL),
      opts.url ? '--url' : env.CREDIT_SANDBOX_URL ? 'CREDIT_SANDBOX_URL' : '--url',
    ),
    clientId: opts.clientId ?? (env.CREDIT_SANDBOX_CLIENT_ID || DEFAULT_CLIENT_ID),
    clientSecret: opts.clientSecret ?? (env.CREDIT_SANDBOX_CLIENT_SECRET || DEFAULT_CLIENT_SECRET),
    // Where each came from, for the message when the sandbox refuses them.
    credentialSource: {
      clientId: opts.clientId
        ? '--client-id'
        : env.CREDIT_SANDBOX_CLIENT_ID
          ? 'CREDIT_SANDBOX_CLIENT_ID'
          : 'default',
      clientSecret: opts.clientSecret
        ? '--client-secret'
        : env.CREDIT_SANDBOX_CLIENT_SECRET
          ? 'CREDIT_SANDBOX_CLIENT_SECRET'
          : 'default',
    },
  });
  return { client, out: new Output(Boolean(opts.json)) };
}

/**
 * Printing: results go to stdout (text, or JSON with --json); progress and errors go to stderr,
 * so `--json` output can be piped straight into jq.
 */
export class Output {
  constructor(readonly json: boolean) {}

  /** The command's result: `value` as JSON, or the text lines `human` makes of it. */
  result(value: unknown, human: () => string | string[]): void {
    if (this.json) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    else process.stdout.write(`${[human()].flat().join('\n')}\n`);
  }

  /** One JSON object per line (streams: events tail, listen), or a text line. */
  line(value: unknown, human: string): void {
    process.stdout.write(this.json ? `${JSON.stringify(value)}\n` : `${human}\n`);
  }

  /** Progress for people (stderr), never mixed into results. */
  progress(message: string): void {
    process.stderr.write(`${message}\n`);
  }
}

/**
 * Wraps a command's action: maps failures to exit codes and messages (stderr; with --json the
 * error is also printed as JSON on stdout), and exits once output is flushed.
 */
export function action<A extends unknown[]>(
  run: (context: CliContext, ...args: A) => Promise<number | undefined>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const command = args.at(-1) as Command;
    let code: number;
    let json = false;
    try {
      const context = cliContext(command);
      json = context.out.json;
      code = (await run(context, ...args)) ?? EXIT.ok;
    } catch (error) {
      code = report(error, json);
    }
    await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
    process.exit(code);
  };
}

function report(error: unknown, json: boolean): number {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof UsageError ? EXIT.usage : EXIT.failed;
  if (json) {
    const detail =
      error instanceof ApiCallError
        ? { message, status: error.response.status, problem: error.response.body }
        : { message, kind: error instanceof Error ? error.name : 'Error' };
    process.stdout.write(`${JSON.stringify({ error: detail }, null, 2)}\n`);
  }
  const known =
    error instanceof ApiCallError ||
    error instanceof UnreachableError ||
    error instanceof UsageError ||
    error instanceof FailedError;
  process.stderr.write(
    `credit-sandbox: ${known ? message : `unexpected error: ${error instanceof Error ? (error.stack ?? message) : message}`}\n`,
  );
  return code;
}
