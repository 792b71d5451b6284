// The floor for the proxy bench: a forwarder that does nothing but forward (node:http server, undici
// client, raw answer headers passed back), no checks, no recording, no copies. What any Node HTTP
// proxy costs, measured beside `credit-sandbox proxy`. Env UPSTREAM (base URL ending in /v3).
// Answers 'cpu' on its IPC channel with its process.cpuUsage().
import { createServer } from 'node:http';
import { Agent } from 'undici';
import { answerCpuRequests } from './answer-cpu.js';

const upstream = new URL(process.env.UPSTREAM ?? '');
const root = upstream.pathname.replace(/\/v3\/?$/, '');
const agent = new Agent();
const server = createServer((req, res) => {
  const headers: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    if (name !== 'host' && name !== 'connection' && name !== 'keep-alive')
      headers.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  const hasBody =
    req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  agent.dispatch(
    {
      origin: upstream.origin,
      path: `${root}${req.url}`,
      method: (req.method ?? 'GET') as 'GET',
      headers,
      body: hasBody ? req : null,
    },
    {
      onRequestStart() {},
      onResponseStart(controller, status, _headers, message) {
        const raw = (controller.rawHeaders ?? []) as Buffer[];
        res.writeHead(
          status,
          message ?? '',
          raw.map((part) => part.toString('latin1')),
        );
      },
      onResponseData(controller, chunk) {
        if (!res.write(chunk)) {
          controller.pause();
          res.once('drain', () => controller.resume());
        }
      },
      onResponseEnd() {
        res.end();
      },
      onResponseError(_controller, error) {
        if (!res.headersSent) res.writeHead(502).end(String(error));
        else res.destroy();
      },
    },
  );
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
answerCpuRequests();
