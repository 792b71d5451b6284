// The baseline: a bare Hono app on @hono/node-server answering static JSON. Prints its port.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.get('/v3/sandbox/clock', (c) => c.json({ now: '2026-03-02T12:00:00.000Z', frozen: true }));
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
