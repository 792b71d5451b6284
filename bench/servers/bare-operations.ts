// The baseline of bench/operations.ts: a bare Hono app on @hono/node-server answering, at the same
// path, the same bytes the sandbox answered for each operation (status, Content-Type, body): a JSON
// answer with `c.json` of the same value, as an app serialising its answer does (the same bytes:
// the sandbox's JSON has no spaces), anything else as it is. A write parses its body first (JSON,
// or a form / multipart body with parseBody), then answers. The answers come from the file named by OPERATIONS_FILE. Sends its port; answers
// 'cpu' and 'heap' on its IPC channel.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { answerCpuRequests } from './answer-cpu.js';

export interface BareAnswer {
  method: string;
  path: string;
  status: number;
  contentType: string;
  body: string;
  /** How a write's request body is read before the answer (`none`: not at all). */
  parse: 'json' | 'form' | 'none';
}

const answers = JSON.parse(readFileSync(process.env.OPERATIONS_FILE as string, 'utf8')) as BareAnswer[];
const app = new Hono();
for (const a of answers) {
  const status = a.status as ContentfulStatusCode;
  // A 204 (DELETE /sandbox/partners/{id}) has no body to parse or send.
  const empty = a.body === '';
  const value = a.contentType === 'application/json' && !empty ? (JSON.parse(a.body) as object) : undefined;
  const headers = { 'content-type': a.contentType };
  const answer = (c: Context) =>
    empty
      ? c.body(null, status)
      : value === undefined
        ? c.body(a.body, status, headers)
        : c.json(value, status);
  app.on(
    a.method,
    a.path,
    a.parse === 'none'
      ? answer
      : async (c) => {
          await (a.parse === 'json' ? c.req.json() : c.req.parseBody());
          return answer(c);
        },
  );
}
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
answerCpuRequests();
