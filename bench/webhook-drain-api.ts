// Webhook drain after a burst of API calls, one endpoint, on a real server: the sandbox's build
// (dist/, its own process, frozen clock, default flags) and a loopback receiver (another process).
// N `POST /v3/customers` over C keep-alive connections, each one `customer.created` event for the
// endpoint; then the time from the last API answer to the last delivery received, and the
// server's CPU per call (answer + delivery). `npx tsx bench/webhook-drain-api.ts` (N=200, C=4,
// ROUNDS=5); it builds dist/ first unless NO_BUILD=1.
import type { ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { generateCpf } from '../src/finance/cpf.js';
import { benchSession, buildDist, childCpuMicros, median, startChild } from './support.js';

const CALLS = Number(process.env.N ?? 200);
const CONNECTIONS = Number(process.env.C ?? 4);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

interface ReceiverReport {
  received: number;
  lastNs: string;
}

function ask(child: ChildProcess, message: 'reset' | 'report'): Promise<ReceiverReport> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as ReceiverReport));
    child.send(message);
  });
}

let nextCpf = 100_000_000 + Math.floor(Math.random() * 400_000_000);

async function burst(
  server: ChildProcess,
  receiver: ChildProcess,
  base: string,
  headers: Record<string, string>,
  agent: Agent,
): Promise<{ ms: number; cpuMicrosPerCall: number; duringBurst: number }> {
  await ask(receiver, 'reset');
  const cpuBefore = await childCpuMicros(server);
  let sent = 0;
  const worker = async () => {
    while (sent < CALLS) {
      sent++;
      const res = await request(`${base}/customers`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          cpf: generateCpf(String(nextCpf++)),
          name: 'Drain Bench',
          email: 'd@example.com',
        }),
        dispatcher: agent,
      });
      await res.body.dump();
      if (res.statusCode !== 201) throw new Error(`POST /v3/customers answered ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const lastAnswerNs = process.hrtime.bigint();
  const duringBurst = (await ask(receiver, 'report')).received;
  let report = await ask(receiver, 'report');
  for (let waited = 0; report.received < CALLS && waited < 60_000; waited += 5) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    report = await ask(receiver, 'report');
  }
  if (report.received !== CALLS) throw new Error(`${report.received} of ${CALLS} deliveries arrived`);
  const cpu = (await childCpuMicros(server)) - cpuBefore;
  return {
    ms: Math.max(0, Number(BigInt(report.lastNs) - lastAnswerNs) / 1e6),
    cpuMicrosPerCall: cpu / CALLS,
    duringBurst,
  };
}

export async function run(): Promise<{ name: string; markdown: string; ok: boolean }> {
  if (process.env.NO_BUILD !== '1') buildDist();
  const receiver = await startChild('./servers/webhook-drain-receiver.ts');
  const server = await startChild('./servers/sandbox.ts');
  const agent = new Agent({ connections: CONNECTIONS, keepAliveTimeout: 10_000 });
  try {
    const base = `http://127.0.0.1:${server.port}/v3`;
    const { headers } = await benchSession(base);
    const created = await request(`${base}/webhooks/endpoints`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `http://127.0.0.1:${receiver.port}/hooks`, events: ['customer.created'] }),
      dispatcher: agent,
    });
    await created.body.dump();
    if (created.statusCode !== 201) throw new Error(`creating the endpoint answered ${created.statusCode}`);
    await burst(server.child, receiver.child, base, headers, agent); // warm-up (JIT, connections)
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push(await burst(server.child, receiver.child, base, headers, agent));
    }
    const ms = rounds.map((r) => r.ms);
    const markdown = [
      `| ${CALLS} POST /v3/customers over ${CONNECTIONS} connections, one endpoint, median of ${ROUNDS} | value |`,
      '|---|---:|',
      `| ms from the last API answer to the last delivery received (min–max) | ${median(ms).toFixed(1)} (${Math.min(...ms).toFixed(1)}–${Math.max(...ms).toFixed(1)}) |`,
      `| deliveries received before the last API answer (median) | ${median(rounds.map((r) => r.duringBurst))} of ${CALLS} |`,
      `| server CPU µs per call (answer and delivery) | ${median(rounds.map((r) => r.cpuMicrosPerCall)).toFixed(0)} |`,
    ].join('\n');
    return { name: 'Webhook drain after a burst of API calls', markdown, ok: true };
  } finally {
    await agent.close();
    server.child.kill();
    receiver.child.kill();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
}
