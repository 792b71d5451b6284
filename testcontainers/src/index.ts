import { AbstractStartedContainer, GenericContainer, type StartedTestContainer, Wait } from 'testcontainers';
import { SandboxApiError, ScenarioFailedError, sandboxClient } from '../../src/testing/client.js';
import type { ClockReading, Faults, SandboxClient, ScenarioParam, ScenarioRun } from '../../src/testing/types.js';

export { SandboxApiError, ScenarioFailedError };
export type { ClockReading, FaultRule, Faults, SandboxClient, ScenarioRun } from '../../src/testing/types.js';

/** The image `docker build -t credit-sandbox:local .` makes (README, "Docker"). */
export const DEFAULT_IMAGE = 'credit-sandbox:local';
const PORT = 8080;
const SCENARIOS_DIR = '/home/node/scenarios';
const SNAPSHOT_FILE = '/home/node/snapshot.json';
const SNAPSHOT_FILE_GZ = '/home/node/snapshot.json.gz';
const DEFAULT_CLIENT_ID = 'cid_sandbox_default';
const DEFAULT_CLIENT_SECRET = 'svc_cs_test_sandbox_default_secret';

/**
 * The credit-sandbox image as a Testcontainers module. Ready when the image's own HEALTHCHECK
 * command reports healthy (checked every half second here instead of the image's 10 s).
 *
 * ```ts
 * const sandbox = await new CreditSandboxContainer().withSeed('ci').withFrozenClock().start();
 * const { captured } = await sandbox.runScenario('happy-path');
 * ```
 */
export class CreditSandboxContainer extends GenericContainer {
  private readonly args: string[] = [];
  private clientId = DEFAULT_CLIENT_ID;
  private clientSecret = DEFAULT_CLIENT_SECRET;

  constructor(image = DEFAULT_IMAGE) {
    super(image);
    this.withExposedPorts(PORT)
      .withHealthCheck({
        test: ['CMD', 'node', 'dist/cli/healthcheck.js'],
        interval: 500,
        timeout: 3000,
        retries: 60,
        startPeriod: 0,
      })
      .withWaitStrategy(Wait.forHealthCheck())
      .withStartupTimeout(60_000);
  }

  /** Reproducible ids, secrets and tokens (`--seed`). */
  withSeed(seed: string): this {
    this.args.push('--seed', seed);
    return this;
  }

  /** Where the partner clock starts (`--start-time`), e.g. `2026-03-02T12:00:00Z`. */
  withStartTime(start: string | Date): this {
    this.args.push('--start-time', start instanceof Date ? start.toISOString() : start);
    return this;
  }

  /** The clock moves only when a test advances it (`--clock frozen`). */
  withFrozenClock(): this {
    this.args.push('--clock', 'frozen');
    return this;
  }

  /** Your own scenario files, copied into the container (`--scenarios`). */
  withScenarios(dir: string): this {
    this.withCopyDirectoriesToContainer([{ source: dir, target: SCENARIOS_DIR }]);
    this.args.push('--scenarios', SCENARIOS_DIR);
    return this;
  }

  /** A snapshot export (JSON or .json.gz) copied in and loaded into the default partner at start (`--snapshot`). */
  withSnapshot(file: string): this {
    const target = file.endsWith('.gz') ? SNAPSHOT_FILE_GZ : SNAPSHOT_FILE;
    this.withCopyFilesToContainer([{ source: file, target, mode: 0o644 }]);
    this.args.push('--snapshot', target);
    return this;
  }

  /** Plain-http webhook targets besides loopback, e.g. the docker bridge gateway the test listens on. */
  withWebhookHttpHosts(...hosts: string[]): this {
    this.args.push('--webhook-http-hosts', hosts.join(','));
    return this;
  }

  /** The default partner's credential (`CREDIT_SANDBOX_CLIENT_ID` / `_SECRET`). */
  withCredential(clientId: string, clientSecret: string): this {
    this.clientId = clientId;
    this.clientSecret = clientSecret;
    return this.withEnvironment({ CREDIT_SANDBOX_CLIENT_ID: clientId, CREDIT_SANDBOX_CLIENT_SECRET: clientSecret });
  }

  override async start(): Promise<StartedCreditSandboxContainer> {
    this.withCommand(['serve', '--log', 'off', ...this.args]);
    return new StartedCreditSandboxContainer(await super.start(), this.clientId, this.clientSecret);
  }
}

/** A running sandbox container: its address, its credential and the test helpers over HTTP. */
export class StartedCreditSandboxContainer extends AbstractStartedContainer implements SandboxClient {
  private readonly client: SandboxClient;
  readonly faults: Faults;

  constructor(
    started: StartedTestContainer,
    readonly clientId: string,
    readonly clientSecret: string,
  ) {
    super(started);
    this.client = sandboxClient(`${this.getUrl()}/v3`, clientId, clientSecret);
    this.faults = this.client.faults;
  }

  /** The server root: `http://<host>:<mapped port>` (dashboard, /docs, /healthz). */
  getUrl(): string {
    return `http://${this.getHost()}:${this.getMappedPort(PORT)}`;
  }

  /** The API base with `/v3`, what a partner's client is configured with. */
  getBaseUrl(): string {
    return this.client.baseUrl;
  }

  get baseUrl(): string {
    return this.client.baseUrl;
  }

  getClientId(): string {
    return this.clientId;
  }

  getClientSecret(): string {
    return this.clientSecret;
  }

  token(): Promise<string> {
    return this.client.token();
  }

  advance(by: string): Promise<ClockReading> {
    return this.client.advance(by);
  }

  runScenario(name: string, params?: Record<string, ScenarioParam>): Promise<ScenarioRun> {
    return this.client.runScenario(name, params);
  }

  snapshot(name: string): Promise<unknown> {
    return this.client.snapshot(name);
  }

  restore(name: string): Promise<unknown> {
    return this.client.restore(name);
  }

  reset(): Promise<void> {
    return this.client.reset();
  }

  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    return this.client.api<T>(method, path, body);
  }
}
