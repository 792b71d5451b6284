import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/testing/index.js';
import { CreditSandboxContainer, type StartedCreditSandboxContainer } from '../src/index.js';

// The module against the real Docker engine and the image .ci/docker.sh built (CREDIT_SANDBOX_IMAGE).
//
// Ryuk, Testcontainers' reaper, runs from the testcontainers/ryuk image, pulled from Docker Hub.
// Where that image is not on the engine (CI here has no registry access), Ryuk is turned OFF and
// this test removes its container itself in afterAll.
const RYUK_IMAGE = 'testcontainers/ryuk:0.14.0';
if (!imagePresent(RYUK_IMAGE)) {
  process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
  console.log(`testcontainers: ${RYUK_IMAGE} is not on this engine: Ryuk turned off, the test cleans up itself`);
}
const IMAGE = process.env.CREDIT_SANDBOX_IMAGE ?? 'credit-sandbox:local';

function imagePresent(image: string): boolean {
  try {
    execFileSync('docker', ['image', 'inspect', image], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The docker bridge's gateway: the host address a container on the default bridge reaches. Docker
 * names it in the network's IPAM config, or only on the host's bridge interface (docker0).
 */
function bridgeGateway(): string {
  const format = '{{range .IPAM.Config}}{{.Gateway}}{{end}}|{{index .Options "com.docker.network.bridge.name"}}';
  const [gateway, iface] = execFileSync('docker', ['network', 'inspect', 'bridge', '-f', format])
    .toString()
    .trim()
    .split('|');
  const address =
    gateway && /^\d+\.\d+\.\d+\.\d+$/.test(gateway)
      ? gateway
      : // Node lists only interfaces that are up; docker0 is down until a container joins it.
        /inet (\d+\.\d+\.\d+\.\d+)/.exec(
          execFileSync('ip', ['-4', '-o', 'addr', 'show', iface || 'docker0']).toString(),
        )?.[1];
  if (!address) throw new Error(`no address for the docker bridge (interface ${iface})`);
  return address;
}

interface Delivery {
  headers: Record<string, string>;
  body: string;
}

let sandbox: StartedCreditSandboxContainer;
let receiver: Server;
let receiverUrl: string;
const deliveries: Delivery[] = [];
let delivered: (delivery: Delivery) => void = () => {};
let fixtureCustomerId: string;

/** A snapshot export with one customer, made by an in-process sandbox at the same start time. */
async function snapshotFixture(dir: string): Promise<string> {
  const local = await startSandbox({ startTime: '2026-03-02T12:00:00Z' });
  try {
    const customer = await local.api<{ id: string }>('POST', '/customers', {
      cpf: '11144477735',
      name: 'Bia Lima',
      email: 'bia@example.com',
    });
    fixtureCustomerId = customer.id;
    await local.snapshot('one-customer');
    const file = join(dir, 'one-customer.json');
    writeFileSync(file, JSON.stringify(await local.api('GET', '/sandbox/snapshots/one-customer/export')));
    return file;
  } finally {
    await local.stop();
  }
}

beforeAll(async () => {
  const gateway = bridgeGateway();
  // The test process listens on the bridge gateway only (not on every interface).
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const delivery = {
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
      };
      deliveries.push(delivery);
      res.writeHead(204).end();
      delivered(delivery);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, gateway, resolve));
  receiverUrl = `http://${gateway}:${(receiver.address() as AddressInfo).port}/hooks`;

  const scenarios = mkdtempSync(join(tmpdir(), 'tc-scenarios-'));
  writeFileSync(
    join(scenarios, 'register-ana.yaml'),
    [
      'name: register-ana',
      'description: One customer, registered (a team scenario copied into the container).',
      'steps:',
      '  - request: { method: POST, path: /v3/customers, body: { cpf: "52998224725", name: Ana, email: ana@example.com } }',
      '    expect_status: 201',
      '    capture: { customer: body }',
      '',
    ].join('\n'),
  );
  sandbox = await new CreditSandboxContainer(IMAGE)
    .withSeed('testcontainers')
    .withStartTime('2026-03-02T12:00:00Z')
    .withFrozenClock()
    .withScenarios(scenarios)
    .withSnapshot(await snapshotFixture(scenarios))
    .withWebhookHttpHosts(gateway)
    .start();
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

describe('CreditSandboxContainer (testcontainers) against the built image', () => {
  it('is healthy and gives its base URL, credential and a token; the clock is frozen at the start time', async () => {
    expect(sandbox.getBaseUrl()).toMatch(/^http:\/\/[^/]+:\d+\/v3$/);
    expect(sandbox.getClientId()).toBe('cid_sandbox_default');
    expect(await sandbox.token()).toMatch(/^svc_at_/);
    const clock = await sandbox.api<{ now: string; frozen: boolean }>('GET', '/sandbox/clock');
    expect(clock).toEqual({ now: '2026-03-02T12:00:00.000Z', frozen: true });
    expect((await sandbox.advance('1d')).now).toBe('2026-03-03T12:00:00.000Z');
  });

  it('starts from the snapshot file given with withSnapshot (serve --snapshot)', async () => {
    const customer = await sandbox.api<{ id: string; name: string }>('GET', `/customers/${fixtureCustomerId}`);
    expect(customer.name).toBe('Bia Lima');
  });

  it('runs a scenario from the copied directory and sends a signed webhook to the test process', async () => {
    const endpoint = await sandbox.api<{ id: string; secret: string }>('POST', '/webhooks/endpoints', {
      url: receiverUrl,
      events: ['customer.created'],
    });
    const arrived = new Promise<Delivery>((resolve) => {
      delivered = resolve;
    });
    const run = await sandbox.runScenario('register-ana');
    const customer = run.captured.customer as { id: string };
    const delivery = await arrived;
    // Verified with the endpoint's secret, as a partner's app would (Standard Webhooks).
    const payload = new Webhook(endpoint.secret.replace(/^whsec_/, '')).verify(delivery.body, delivery.headers) as {
      type: string;
      data: { id: string };
    };
    expect(payload.type).toBe('customer.created');
    expect(payload.data.id).toBe(customer.id);
    expect(deliveries).toHaveLength(1);
    expect(() => new Webhook(Buffer.alloc(24, 1).toString('base64')).verify(delivery.body, delivery.headers)).toThrow();
  });

  it('runs a shipped scenario, with a clock advance inside, through the helpers', async () => {
    const run = await sandbox.runScenario('loan-awaiting-signature');
    expect((run.captured.loan as { status: string }).status).toBe('awaiting_signatures');
  });
});
