// The sandbox as users run it (in memory), with the rate limiter on but out of reach. Prints its port.
import { startServer } from '../../src/server.js';

const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  clockMode: 'frozen',
  webhookHttpHosts: [],
  rateLimit: 1_000_000_000,
  credential: { clientId: 'cid_bench', clientSecret: 'svc_cs_test_bench' },
  log: { info: () => {}, error: (m, e) => console.error(m, e) },
});
process.send?.({ port: Number(new URL(server.url).port) });
