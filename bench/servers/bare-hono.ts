// The baseline: a bare Hono app on @hono/node-server answering static JSON of the same shapes the
// sandbox answers, so a ratio measures the sandbox's work, not the size of its payloads. Prints its port;
// answers 'cpu' on its IPC channel with its process.cpuUsage().
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { answerCpuRequests } from './answer-cpu.js';

const CLOCK = { now: '2026-03-02T12:00:00.000Z', frozen: true };
const item = (type: string, description: string) => ({
  kind: 'document',
  type,
  description,
  status: 'pending',
  message: null,
  uploaded_at: null,
});
const CUSTOMER = {
  id: 'cust_0123456789abcdef0123456789abcdef',
  status: 'pending_kyc',
  cpf: '52998224725',
  cnpj: null,
  name: 'Bench Customer',
  email: 'bench@example.com',
  phone: null,
  trading_name: null,
  external_id: null,
  kyc: [
    item('identity_card_front', 'Identity card (front)'),
    item('identity_card_back', 'Identity card (back)'),
    item('selfie', 'Selfie holding the identity card'),
    { ...item('biometrics', 'Facial biometrics capture'), kind: 'document' },
  ],
  created_at: '2026-03-02T12:00:00.000Z',
  updated_at: '2026-03-02T12:00:00.000Z',
};

const app = new Hono();
app.get('/v3/sandbox/clock', (c) => c.json(CLOCK));
app.get('/v3/customers/:id', (c) => c.json(CUSTOMER));
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
answerCpuRequests();
