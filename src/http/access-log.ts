import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Http2SecureServer, Http2Server } from 'node:http2';
import { redactTarget } from '../inspector/redact.js';

/** `--log`: one line per request for people (`pretty`), for log collectors (`json`), or none. */
export type AccessLogFormat = 'pretty' | 'json' | 'off';

export const ACCESS_LOG_FORMATS: readonly AccessLogFormat[] = ['pretty', 'json', 'off'];

/**
 * Logs each request when its response has been sent: real time, method, path, status and how
 * long it took. It listens on the Node server itself, so the API's hot path is untouched, and
 * 404s and errors are logged like any other answer. Docker's health probe (`GET /healthz`
 * answered 200) is left out: it would be most of the log of an idle container.
 */
export function attachAccessLog(
  server: Server | Http2Server | Http2SecureServer,
  format: Exclude<AccessLogFormat, 'off'>,
  write: (line: string) => void,
): void {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    res.once('finish', () => {
      const target = req.url ?? '/';
      if (target === '/healthz' && res.statusCode === 200) return;
      // Secrets in a query (`?client_secret=…`) or a path never reach the log.
      const path = redactTarget(target);
      const entry = {
        time: new Date().toISOString(),
        method: req.method ?? 'GET',
        path,
        status: res.statusCode,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
      };
      write(format === 'json' ? JSON.stringify(entry) : prettyLine(entry));
    });
  });
}

function prettyLine(entry: {
  time: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
}) {
  return `${entry.time}  ${entry.method.padEnd(6)} ${entry.path}  ${entry.status}  ${entry.duration_ms} ms`;
}
