import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { type RunningServer, type ServeOptions, startServer } from '../../src/server.js';

/**
 * A real sandbox server for whole-flow tests: 127.0.0.1 on a free port, frozen clocks, no rate
 * limit, the default credential, a quiet log (errors still printed); `options` override any of it.
 */
export function startQuietServer(options: Partial<ServeOptions> = {}): Promise<RunningServer> {
  return startServer({
    port: 0,
    host: '127.0.0.1',
    clockMode: 'frozen',
    webhookHttpHosts: [],
    rateLimit: 0,
    credential: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
    log: { info: () => {}, error: (message, error) => console.error(message, error) },
    ...options,
  });
}
