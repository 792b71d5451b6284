import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from './deps.js';
import { problemTypeUrl } from './problem.js';

/**
 * Node's request handler, guarded: whatever it throws (or rejects with) is logged and answered
 * with a 500 problem, or the connection is closed if an answer had begun. Node would otherwise
 * end the process on an exception thrown from a 'request' listener. The app answers its own
 * errors (see error-answer.ts); this catches what happens around it (fast paths, the access log).
 */
export function guardListener(
  listener: RequestListener,
  log: Logger,
  publicUrl: () => string,
): RequestListener {
  const failed = (res: ServerResponse, error: unknown) => {
    try {
      log.error('a request failed outside the app', error);
    } catch {
      // The answer still goes out.
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = JSON.stringify({
      type: problemTypeUrl(publicUrl(), 'internal_error'),
      title: 'Internal server error',
      status: 500,
      detail: 'The sandbox failed unexpectedly; the error was logged. It is safe to retry.',
      code: 'internal_error',
    });
    res.writeHead(500, {
      'content-type': 'application/problem+json',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    try {
      const done = listener(req, res) as unknown;
      if (done instanceof Promise) done.catch((error: unknown) => failed(res, error));
    } catch (error) {
      failed(res, error);
    }
  };
}
