import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** Requests sent to each target, by target URL. */
  counts: Map<string, number>;
  close(): Promise<void>;
}

/**
 * The simplest load balancer: each request goes to the next target in turn, no stickiness. A
 * target that refuses the connection (a dead instance) is skipped for the next one, as a load
 * balancer's health check would; a connection that breaks mid-request answers 502.
 */
export async function startProxy(targets: () => string[]): Promise<RoundRobinProxy> {
  let turn = 0;
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const list = targets();
      const attempt = (tries: number) => {
        const target = list[turn++ % list.length] as string;
        counts.set(target, (counts.get(target) ?? 0) + 1);
        const url = new URL(req.url ?? '/', target);
        const out = httpRequest(
          url,
          { method: req.method, headers: { ...req.headers, host: url.host }, agent: false },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            // The target died mid-answer (a stream): break the client's connection too.
            answer.on('aborted', () => res.destroy());
          },
        );
        out.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code === 'ECONNREFUSED' && tries < list.length) return attempt(tries + 1);
          if (res.headersSent) return void res.destroy();
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`proxy: ${error.message}`);
        });
        // The client went away (a page closed its live stream): stop the target's answer.
        res.on('close', () => out.destroy());
        out.end(body);
      };
      attempt(1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
