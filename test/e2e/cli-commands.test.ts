import { describe, expect, it } from 'vitest';
import { generateCpf } from '../../src/finance/cpf.js';
import { exitOf, partnerEnvOn, runCli, spawnCli, testServerForFile, waitForLine } from '../support/cli.js';
import { WAIT_LIMIT_S } from '../support/time-limits.js';

// One sandbox on loopback; each test works in its own partner, made over HTTP (spawns are slow),
// so the tests run concurrently: most of their time is waiting on the CLIs they spawn.
const server = testServerForFile();
const partnerEnv = () => partnerEnvOn(server.url, 'cli-commands');

const json = <T>(text: string) => JSON.parse(text) as T;
const DAY = 86_400_000;

describe.concurrent('clock typos and reset (spawned CLI)', () => {
  it('a bare number is a usage error that suggests the unit; nothing moves', async () => {
    const env = await partnerEnv();
    const before = json<{ now: string }>((await runCli(['clock', 'show', '--json'], env)).stdout);
    const typo = await runCli(['clock', 'advance', '35'], env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('"35" has no unit: did you mean 35d?');
    const notADate = await runCli(['clock', 'advance', 'next week'], env);
    expect(notADate.code).toBe(2);
    const after = json<{ now: string }>((await runCli(['clock', 'show', '--json'], env)).stdout);
    expect(after.now).toBe(before.now);
  });

  it('a jump over 366 days needs --yes; reset needs --yes and starts the clock over', async () => {
    const env = await partnerEnv();
    const refused = await runCli(['clock', 'advance', '400d'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('advancing 400 days');
    expect(refused.stderr).toContain('--yes');
    const far = new Date(Date.now() + 800 * DAY).toISOString();
    const refusedTo = await runCli(['clock', 'advance', far], env);
    expect(refusedTo.code).toBe(2);

    const yes = await runCli(['clock', 'advance', '400d', '--yes', '--json'], env);
    expect(yes.code).toBe(0);
    expect(Date.parse(json<{ now: string }>(yes.stdout).now)).toBeGreaterThan(Date.now() + 399 * DAY);

    const noYes = await runCli(['reset'], env);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    const reset = await runCli(['reset', '--yes', '--json'], env);
    expect(reset.code).toBe(0);
    const { clock } = json<{ clock: { now: string } }>(reset.stdout);
    expect(Math.abs(Date.parse(clock.now) - Date.now())).toBeLessThan(60_000);
  });
});

describe.concurrent('URLs (spawned CLI)', () => {
  it('accepts the base URL with or without /v3; a URL without a scheme says what to type', async () => {
    const env = await partnerEnv();
    for (const url of [server.url, `${server.url}/v3`, `${server.url}/v3/`]) {
      const res = await runCli(['clock', 'show', '--url', url], env);
      expect(res.code, url).toBe(0);
    }
    const hostPort = server.url.replace('http://', '');
    const bare = await runCli(['clock', 'show', '--url', hostPort], env);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain(`--url http://${hostPort}`);
    const bareEnv = await runCli(['clock', 'show'], { ...env, CREDIT_SANDBOX_URL: hostPort });
    expect(bareEnv.code).toBe(2);
    expect(bareEnv.stderr).toContain(`CREDIT_SANDBOX_URL=http://${hostPort}`);
    const forward = await runCli(['listen', '--forward-to', 'localhost:3000'], env);
    expect(forward.code).toBe(2);
    expect(forward.stderr).toContain('--forward-to http://localhost:3000');
  });
});

describe.concurrent('CLI coverage: customers, webhooks, deliveries, loans, partners, trigger --set', () => {
  it('creates and lists customers and completes their biometrics', async () => {
    const env = await partnerEnv();
    const cpf = generateCpf('412345678');
    const created = await runCli(['customers', 'create', cpf, '--name', 'Ana Lima', '--json'], env);
    expect(created.code).toBe(0);
    const customer = json<{ id: string; status: string }>(created.stdout);
    expect(customer.status).toBe('pending_kyc');
    const listed = await runCli(['customers', 'list', '--status', 'pending_kyc'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${customer.id}  pending_kyc  cpf ${cpf}  Ana Lima`);
    const bio = await runCli(['customers', 'complete-biometrics', customer.id, '--json'], env);
    expect(bio.code).toBe(0);
    const kyc = json<{ kyc: { type: string; status: string }[] }>(bio.stdout).kyc;
    expect(kyc.find((item) => item.type === 'biometrics')?.status).toBe('approved');
    const badOutcome = await runCli(
      ['customers', 'complete-biometrics', customer.id, '--outcome', 'maybe'],
      env,
    );
    expect(badOutcome.code).toBe(2);
  });

  it('registers a webhook endpoint, shows its deliveries and deletes it', async () => {
    const env = await partnerEnv();
    const created = await runCli(
      ['webhooks', 'create', 'http://127.0.0.1:9/down', '--events', 'customer.*', '--json'],
      env,
    );
    expect(created.code).toBe(0);
    const endpoint = json<{ id: string; secret: string }>(created.stdout);
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect((await runCli(['webhooks', 'list'], env)).stdout).toContain(
      `${endpoint.id}  active   http://127.0.0.1:9/down  customer.*`,
    );
    expect((await runCli(['trigger', 'customer.created'], env)).code).toBe(0);
    const listed = await runCli(['deliveries', 'list', '--endpoint', endpoint.id, '--json'], env);
    expect(listed.code).toBe(0);
    const [delivery] = json<{ id: string; event_type: string }[]>(listed.stdout);
    expect(delivery?.event_type).toBe('customer.created');
    const shown = await runCli(['deliveries', 'show', delivery?.id ?? ''], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout.split('\n')[0]).toContain(`${delivery?.id}  `);
    const missing = await runCli(['deliveries', 'show', 'dlv_nope'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('404 resource_not_found');
    expect((await runCli(['deliveries', 'list', '--status', 'lost'], env)).code).toBe(2);
    const deleted = await runCli(['webhooks', 'delete', endpoint.id], env);
    expect(deleted.code).toBe(0);
    expect((await runCli(['webhooks', 'list'], env)).stdout.trim()).toBe('no endpoints');
  });

  it('trigger --set overrides the loan amount; loans list shows it; bad overrides exit 2', async () => {
    // Every individual tier lends between 2,000.00 and 3,000.00, whichever tier the random CPF draws.
    const env = await partnerEnv();
    const triggered = await runCli(['trigger', 'loan.created', '--set', 'amount=2345.6', '--json'], env);
    expect(triggered.code).toBe(0);
    const loanId = json<{ objects: { loan_id: string } }>(triggered.stdout).objects.loan_id;
    const listed = await runCli(['loans', 'list', '--json'], env);
    expect(listed.code).toBe(0);
    expect(json<{ id: string; requested_amount: string }[]>(listed.stdout)).toEqual([
      expect.objectContaining({ id: loanId, requested_amount: '2345.60' }),
    ]);
    const unknown = await runCli(['trigger', 'loan.created', '--set', 'colour=blue'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--set colour: unknown field. Known: amount, installments');
    const badAmount = await runCli(['trigger', 'loan.created', '--set', 'amount=lots'], env);
    expect(badAmount.code).toBe(2);
  });

  it('lists the partners created with a credential, never their secrets', async () => {
    const env = await partnerEnv();
    expect((await runCli(['partners', 'list'], env)).stdout).toContain('no partners created');
    const created = await runCli(['partners', 'create', '--name', 'child-job', '--json'], env);
    const child = json<{ id: string }>(created.stdout);
    const listed = await runCli(['partners', 'list', '--json'], env);
    expect(listed.code).toBe(0);
    const partners = json<Record<string, unknown>[]>(listed.stdout);
    expect(partners).toEqual([expect.objectContaining({ id: child.id, name: 'child-job' })]);
    expect(partners[0]).not.toHaveProperty('client_secret');
  });
});

describe.concurrent('scenario runs for CI (spawned CLI)', () => {
  it('--json returns what the run captured, with ids', async () => {
    const env = await partnerEnv();
    const res = await runCli(['scenario', 'run', 'active-customer', '--json'], env);
    expect(res.code).toBe(0);
    const out = json<{ runs: { captured: { customer: { id: string; status: string } } }[] }>(res.stdout);
    expect(out.runs[0]?.captured.customer).toMatchObject({
      id: expect.stringMatching(/^cust_/),
      status: 'active',
    });
    const text = await runCli(['scenario', 'run', 'active-customer'], env);
    expect(text.stdout).toMatch(/captured: customer cust_\w+/);
  });

  it('a failed run still cleans up and shows the attempt error (connection refused)', async () => {
    const env = await partnerEnv();
    const res = await runCli(
      ['scenario', 'run', 'webhook-receiver-down', '--param', 'receiver_url=http://127.0.0.1:9/still-down'],
      env,
    );
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(
      /FAILED webhook-receiver-down at step 7 \("the retry succeeds"\): .*delivery\.attempts\[-1\]\.error is ".*ECONNREFUSED/,
    );
    expect(res.stdout).toContain('✓  9 remove the endpoint');
    expect((await runCli(['webhooks', 'list'], env)).stdout.trim()).toBe('no endpoints');
  });
});

describe.concurrent('events tail (spawned CLI)', () => {
  it('labels event times as partner-clock times', async () => {
    const env = await partnerEnv();
    const tail = spawnCli(
      ['events', 'tail', '--type', 'customer.created', '--max', '1', '--timeout', WAIT_LIMIT_S],
      env,
    );
    let stdout = '';
    tail.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    const header = await waitForLine(tail.stderr as NodeJS.ReadableStream, (line) =>
      line.startsWith('tailing'),
    );
    expect(header).toContain('event times are on the partner clock');
    expect((await runCli(['customers', 'create', generateCpf('512345678')], env)).code).toBe(0);
    expect(await exitOf(tail)).toBe(0);
    expect(stdout).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z \(partner clock\) {2}customer\.created /);
  });
});
