// The `serve` command's options: names, help texts and defaults (env variables included).
import type { Command } from 'commander';
import { DEFAULT_LEASE_MS, LEASE_MS_BOUNDS } from '../cluster/cluster.js';
import { DEFAULT_FORWARD_WAIT_MS, FORWARD_WAIT_MS_BOUNDS } from '../cluster/forward-wait.js';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from '../http/connection-limits.js';
import { DEFAULT_REQUEST_LOG_SIZE } from '../inspector/request-log.js';

/** Default requests per second per partner (documented in docs/server.md). */
export const DEFAULT_RATE_LIMIT = 100;

/** Declares the `serve` options on its command (the hosted-safety ones are added after the action). */
export function serveOptions(command: Command): Command {
  return command
    .option('-p, --port <port>', 'port to listen on (env PORT)', process.env.PORT ?? '8080')
    .option('--host <host>', 'interface to bind (env HOST)', process.env.HOST ?? '127.0.0.1')
    .option('--clock <mode>', 'how partner clocks start: running | frozen', 'running')
    .option('--data <file>', 'persist to this JSON file and its FILE.journal (default: in memory)')
    .option(
      '--journal-limit <size>',
      "with --data: compact the journal into the snapshot once it exceeds this size (and the snapshot's), e.g. 64kb, 16mb",
      '16mb',
    )
    .option(
      '--database <url>',
      'shared mode: PostgreSQL connection URL, the store of record (env DATABASE_URL)',
      process.env.DATABASE_URL,
    )
    .option(
      '--instance-url <url>',
      'shared mode: the URL other instances reach this one at (env CREDIT_SANDBOX_INSTANCE_URL; default: the listening address)',
      process.env.CREDIT_SANDBOX_INSTANCE_URL,
    )
    .option(
      '--lease <ms>',
      `shared mode: how long an instance holds a partner without renewing it (${LEASE_MS_BOUNDS.min}..${LEASE_MS_BOUNDS.max}); shorter moves a dead instance's partners sooner, longer tolerates a slow database`,
      String(DEFAULT_LEASE_MS),
    )
    .option(
      '--forward-wait <ms>',
      `shared mode: how long a request for a partner whose owner is down waits for the takeover before answering 503 (${FORWARD_WAIT_MS_BOUNDS.min}..${FORWARD_WAIT_MS_BOUNDS.max}, at least --lease)`,
      String(DEFAULT_FORWARD_WAIT_MS),
    )
    .option('--public-url <url>', 'absolute URL partners reach the sandbox at (hosted pages, problem types)')
    .option('--webhook-http-hosts <hosts>', 'comma-separated hosts allowed as plain-http webhook targets', '')
    .option(
      '--webhook-timeout <ms>',
      'a webhook attempt without a complete 2xx answer within this many ms fails',
      '10000',
    )
    .option(
      '--scenarios <dirs>',
      'extra directories of scenario files, comma-separated (env CREDIT_SANDBOX_SCENARIOS)',
      process.env.CREDIT_SANDBOX_SCENARIOS ?? '',
    )
    .option(
      '--timings <list>',
      'automatic delays, e.g. contract_generation=0s,offer_validity=7d (names: docs/lifecycle.md)',
      '',
    )
    .option('--seed <text>', 'make every generated value (ids, secrets, tokens) reproducible from this seed')
    .option(
      '--start-time <date-time>',
      'where partner clocks start, e.g. 2026-03-02T12:00:00Z (default: now)',
    )
    .option('--holidays-region <state>', "add a Brazilian state's holidays to the banking calendar, e.g. SP")
    .option(
      '--rate-limit <rps>',
      'requests per second per partner; 0 turns it off',
      String(DEFAULT_RATE_LIMIT),
    )
    .option('--log <format>', 'access log on the console: pretty | json | off', 'pretty')
    .option(
      '--request-log-size <n>',
      'requests the request inspector keeps per partner; 0 keeps none',
      String(DEFAULT_REQUEST_LOG_SIZE),
    )
    .option(
      '--headers-timeout <ms>',
      'a client that has not sent complete request headers within this many ms is answered 408 and cut off',
      String(DEFAULT_HEADERS_TIMEOUT_MS),
    )
    .option(
      '--request-timeout <ms>',
      'a client that has not sent its whole request (body included) within this many ms is answered 408 and cut off',
      String(DEFAULT_REQUEST_TIMEOUT_MS),
    )
    .option(
      '--max-snapshot-bytes-total <size>',
      'snapshot bytes (as JSON) the instance keeps for all partners together, e.g. 128mb (env CREDIT_SANDBOX_MAX_SNAPSHOT_BYTES_TOTAL)',
      process.env.CREDIT_SANDBOX_MAX_SNAPSHOT_BYTES_TOTAL ?? '128mb',
    )
    .option(
      '--snapshot <file>',
      'load an exported snapshot (JSON or .json.gz) into the default partner at start (env CREDIT_SANDBOX_SNAPSHOT)',
      process.env.CREDIT_SANDBOX_SNAPSHOT || undefined,
    )
    .option('--hosted', 'shared by several people or partners: caps the open connections per client address')
    .option(
      '--max-connections-per-client <n>',
      'with --hosted, open connections one client address may hold',
      String(DEFAULT_MAX_CONNECTIONS_PER_CLIENT),
    );
}
