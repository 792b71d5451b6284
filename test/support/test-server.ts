import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { type RunningServer, type ServeOptions, startServer } from '../../src/server.js';
import { WAIT_LIMIT_MS } from './time-limits.js';

/**
 * A real sandbox server for whole-flow tests: 127.0.0.1 on a free port, frozen clocks, no rate
 * limit, the default credential, a quiet log (errors still printed), and webhook attempts and
 * slow-client limits only as hang detectors (on a busy machine a prompt receiver or client can be
 * starved past 10 s, and a prompt request was answered `400 request_timeout`, headers "not in
 * time", at load 30); `options` override any of it (the tests of those limits set theirs).
 */
export function startQuietServer(options: Partial<ServeOptions> = {}): Promise<RunningServer> {
  return startServer({
    port: 0,
    host: '127.0.0.1',
    clockMode: 'frozen',
    webhookHttpHosts: [],
    rateLimit: 0,
    webhookTimeoutMs: WAIT_LIMIT_MS,
    headersTimeoutMs: WAIT_LIMIT_MS,
    requestTimeoutMs: WAIT_LIMIT_MS,
    credential: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
    log: { info: () => {}, error: (message, error) => console.error(message, error) },
    ...options,
  });
}
