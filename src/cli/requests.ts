import type { Command } from 'commander';
import { action, UsageError } from './context.js';
import { positiveInt } from './events.js';

interface LoggedRequest {
  id: string;
  method: string;
  path: string;
  query: string | null;
  status: number;
  duration_ms: number;
  idempotency_key: string | null;
  idempotent_replayed: boolean;
  error_code: string | null;
  request_headers: Record<string, string>;
  request_body: unknown;
  response_body: unknown;
  created_at: string;
}

/** One line per request: time, status, method and path, duration, request id, what went wrong. */
export function requestLine(r: LoggedRequest): string {
  const target = r.query ? `${r.path}?${r.query}` : r.path;
  const notes = [
    r.error_code,
    r.idempotency_key ? `key ${r.idempotency_key}${r.idempotent_replayed ? ' (replayed)' : ''}` : null,
  ].filter(Boolean);
  return `${r.created_at}  ${r.status} ${r.method.padEnd(6)} ${target}  ${r.duration_ms} ms  ${r.id}${notes.length ? `  ${notes.join(', ')}` : ''}`;
}

/** `requests list [--status] [--method] [--path] [--limit]` and `requests show <request-id>`. */
export function registerRequests(program: Command): void {
  const requests = program
    .command('requests')
    .description("the request inspector: the partner's recent API requests and answers");

  requests
    .command('list')
    .description('recent requests, newest first')
    .option('-s, --status <status>', 'an exact status (404) or a class (4xx)')
    .option('-m, --method <method>', 'GET, POST, PUT, PATCH or DELETE')
    .option('-p, --path <prefix>', 'only paths starting with this, e.g. /v3/loans')
    .option('-l, --limit <n>', 'how many (1..100)', '25')
    .action(
      action(
        async ({ client, out }, opts: { status?: string; method?: string; path?: string; limit: string }) => {
          const limit = positiveInt(opts.limit, '--limit');
          const page = await client.call<{ data: LoggedRequest[] }>('GET', '/v3/sandbox/requests', {
            query: { status: opts.status, method: opts.method?.toUpperCase(), path: opts.path, limit },
          });
          out.result(page.data, () => (page.data.length > 0 ? page.data.map(requestLine) : ['no requests']));
          return undefined;
        },
      ),
    );

  requests
    .command('show')
    .description('one request with its headers and bodies (secrets redacted)')
    .argument(
      '<request-id>',
      'the Request-Id of a response (req_…), or the part after # in a problem instance',
    )
    .action(
      action(async ({ client, out }, id: string) => {
        const requestId = id.includes('#') ? id.slice(id.indexOf('#') + 1) : id;
        if (!requestId.startsWith('req_')) throw new UsageError(`a request id starts with req_, got "${id}"`);
        const entry = await client.call<LoggedRequest>('GET', `/v3/sandbox/requests/${requestId}`);
        out.result(entry, () => [
          requestLine(entry),
          '',
          'request headers:',
          ...Object.entries(entry.request_headers).map(([name, value]) => `  ${name}: ${value}`),
          '',
          'request body:',
          indent(entry.request_body),
          '',
          `response ${entry.status}:`,
          indent(entry.response_body),
        ]);
        return undefined;
      }),
    );
}

function indent(value: unknown): string {
  if (value === null || value === undefined) return '  (none)';
  return JSON.stringify(value, null, 2)
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
