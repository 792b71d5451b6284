import type { Command } from 'commander';
import { action, UsageError } from './context.js';

interface Rule {
  id: string;
  match: { method: string | null; path: string };
  action: Record<string, unknown>;
  times_left: number | null;
  probability: number | null;
  expires_at: string | null;
  applied: number;
}

interface AddOptions {
  status?: string;
  afterProcessing?: boolean;
  retryAfter?: string;
  delay?: string;
  reset?: boolean;
  timeout?: string;
  truncate?: boolean;
  times?: string;
  probability?: string;
  expiresIn?: string;
}

/** One line per rule: what it matches, what it does, and how long it lasts. */
export function ruleLine(rule: Rule): string {
  const lasting = [
    rule.times_left !== null ? `${rule.times_left} more` : null,
    rule.probability !== null ? `p=${rule.probability}` : null,
    rule.expires_at !== null ? `until ${rule.expires_at}` : null,
  ].filter(Boolean);
  const method = rule.match.method ?? '*';
  return `${rule.id}  ${method.padEnd(6)} ${rule.match.path}  ${JSON.stringify(rule.action)}  ${lasting.join(', ') || 'every call'}  (applied ${rule.applied})`;
}

/** The action the flags name (the server checks that there is exactly one and its bounds). */
function actionOf(opts: AddOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (opts.status !== undefined) out.status = integer('--status', opts.status);
  if (opts.afterProcessing) out.after_processing = true;
  if (opts.retryAfter !== undefined) out.retry_after = integer('--retry-after', opts.retryAfter);
  if (opts.delay !== undefined) {
    const [min, max, ...rest] = opts.delay.split('..');
    if (rest.length > 0 || min === '' || max === '')
      throw new UsageError('--delay is "2s" or a range "100ms..2s"');
    out.delay = max === undefined ? min : { min, max };
  }
  if (opts.reset) out.reset = true;
  if (opts.timeout !== undefined) out.timeout = opts.timeout;
  if (opts.truncate) out.truncate = true;
  if (Object.keys(out).length === 0) {
    throw new UsageError('name an action: --status 503, --delay 2s, --reset, --timeout 30s or --truncate');
  }
  return out;
}

function integer(flag: string, text: string): number {
  if (!/^\d+$/.test(text))
    throw new UsageError(`${flag} takes a whole number, e.g. ${flag} 503; got "${text}"`);
  return Number(text);
}

/** `faults add <method> <path> … | list | clear [id]`: API-side faults of this partner. */
export function registerFaults(program: Command): void {
  const faults = program
    .command('faults')
    .description("make the API itself fail on command for this partner's calls (/v3/sandbox/faults)");

  faults
    .command('add')
    .argument('<method>', 'GET, POST, PATCH, PUT, DELETE, or * for any')
    .argument('<path>', 'the path template below /v3, e.g. /loans or /customers/{customer_id}')
    .option('--status <code>', 'answer 500, 502, 503, 504 or 429 instead of running the operation')
    .option(
      '--after-processing',
      'with --status 502/504, --reset or --timeout: run the operation, then lose its answer',
    )
    .option('--retry-after <seconds>', 'Retry-After of a --status 429 (default 1)')
    .option('--delay <duration>', 'add latency: 2s, or a range 100ms..2s')
    .option('--reset', 'reset the connection without an answer')
    .option('--timeout <duration>', 'never answer; close the connection after this long (at most 2m)')
    .option('--truncate', 'send the status, headers and half of the body, then close the connection')
    .option(
      '--times <n>',
      'act on the next n matching calls only (a rule on /auth/token needs this or --expires-in)',
    )
    .option('--probability <p>', "act on each matching call with this chance (the partner's random stream)")
    .option(
      '--expires-in <duration>',
      'stop acting after this long on the partner clock, e.g. 10m (at most 1h on /auth/token)',
    )
    .description('add a fault rule (matched in order of creation)')
    .action(
      action(async ({ client, out }, method: string, path: string, opts: AddOptions) => {
        const body: Record<string, unknown> = {
          match: method === '*' ? { path } : { method: method.toUpperCase(), path },
          action: actionOf(opts),
        };
        if (opts.times !== undefined) body.times = integer('--times', opts.times);
        if (opts.probability !== undefined) {
          const p = Number(opts.probability);
          if (!Number.isFinite(p)) throw new UsageError(`--probability takes a number in (0, 1], e.g. 0.25`);
          body.probability = p;
        }
        if (opts.expiresIn !== undefined) body.expires_in = opts.expiresIn;
        const rule = await client.call<Rule>('POST', '/v3/sandbox/faults', { body });
        out.result(rule, () => `added ${ruleLine(rule)}`);
        return undefined;
      }),
    );

  faults
    .command('list')
    .description('the rules in force, in the order they are matched')
    .action(
      action(async ({ client, out }) => {
        const list = await client.call<{ data: Rule[] }>('GET', '/v3/sandbox/faults');
        out.result(list.data, () => (list.data.length ? list.data.map(ruleLine) : ['no fault rules']));
        return undefined;
      }),
    );

  faults
    .command('clear')
    .argument('[fault-id]', 'flt_…: only this rule (default: all of them)')
    .description('delete one fault rule, or all of them')
    .action(
      action(async ({ client, out }, id: string | undefined) => {
        if (id !== undefined) {
          const rule = await client.call<Rule>('DELETE', `/v3/sandbox/faults/${encodeURIComponent(id)}`);
          out.result(rule, () => `deleted ${rule.id}`);
          return undefined;
        }
        const cleared = await client.call<{ deleted: number }>('DELETE', '/v3/sandbox/faults');
        out.result(cleared, () => `deleted ${cleared.deleted} fault rule${cleared.deleted === 1 ? '' : 's'}`);
        return undefined;
      }),
    );
}
