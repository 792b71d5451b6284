// Shapes shared by the kit's files: a check, what it sees while it runs, and what it leaves in the
// report. Nothing here knows the server: only what a client of the API can know.
import type { Answer, PartnerApi, ReportedRequest } from './wire.js';

export type { ReportedRequest } from './wire.js';

import type { Hook, HookOptions } from './webhooks/hook.js';

/** How much of the world the kit drives: only the spec's endpoints, or also `/v3/sandbox/*`. */
export type Mode = 'black-box' | 'controlled';

export type CheckStatus = 'pass' | 'fail' | 'skip';

/** What a check needs of the target: any implementation, or one answering the control API too. */
export type Needs = Mode;

/**
 * One rule of the spec, as data. `id` is stable (`customers.create.location`): reports, `--only`
 * and `--skip` name it. `spec` names the section of the spec the rule comes from.
 */
export interface Check {
  id: string;
  title: string;
  spec: string;
  needs: Needs;
  run(ctx: CheckContext): Promise<void>;
}

/** One check's outcome in the report. */
export interface CheckResult {
  id: string;
  title: string;
  spec: string;
  status: CheckStatus;
  reason?: string;
  expected?: string;
  actual?: string;
  request?: ReportedRequest;
}

/** The run-wide facts a check may read. */
export interface RunFacts {
  mode: Mode;
  /** Base URL ending in `/v3`, as given. */
  target: string;
  /** How long to wait for a move the target makes by itself, in ms. */
  timeoutMs: number;
  /** How long a webhook delivery whose cause already happened is awaited before the check fails. */
  deliveryWaitMs: number;
  /** A short random (or `--seed`-derived) tag in every external_id and name the run creates. */
  runTag: string;
  /** Enum and const string values of the target's OpenAPI document plus the spec's own. */
  enumValues: ReadonlySet<string>;
}

export interface WaitOptions {
  /** Partner time (ms) the clock may move in controlled mode; default 2 h. */
  partnerTime?: number;
  /** One-second clock steps for the first two minutes: states that last seconds are not skipped over. */
  fine?: boolean;
}

/** What a check runs with. Every object it creates is its own (recognisable external ids). */
export interface CheckContext {
  readonly check: Check;
  readonly facts: RunFacts;
  /**
   * The partner this check works as. In controlled mode, when the target lets the kit create
   * partners, a fresh isolated partner with a frozen clock (created on first use); otherwise the
   * credential the kit was given.
   */
  partner(): Promise<PartnerApi>;
  /** A second partner (controlled mode only), for the partner-scoping rules. */
  otherPartner(): Promise<PartnerApi>;
  /** A webhook endpoint of this check's partner whose deliveries the kit's listener collects. */
  webhook(options?: HookOptions): Promise<Hook>;
  /** The same value for every caller with `key` in this partner's world (memoised set-ups). */
  fixture<T>(key: string, build: () => Promise<T>): Promise<T>;
  /**
   * A set-up shared by every check of the run (a whole customer or loan journey watched by one
   * webhook endpoint), built once in a context of its own (`journey.<key>`, its own partner in
   * controlled mode) that stays open until the run ends.
   */
  journey<T>(key: string, build: (ctx: CheckContext) => Promise<T>): Promise<T>;
  /** Deterministic per check and per run: a valid CPF, a CNPJ, an external id. */
  cpf(): string;
  cnpj(): string;
  externalId(label?: string): string;
  /** Registers something to undo when the check ends (delete an endpoint, revoke a credential). */
  cleanup(undo: () => Promise<unknown>): void;
  /** The last answer seen, for a failure's `request`. */
  lastAnswer(): Answer | undefined;
  /**
   * Waits for a move the target makes by itself: `probe` answers the value once the move is
   * seen. Controlled mode moves the partner clock forward in growing steps (at most `partnerTime`
   * of it, default 2 h); black box polls for up to `--timeout`. Either way, a move that never
   * comes skips the check with that reason.
   */
  until<T>(what: string, probe: () => Promise<T | undefined>, options?: WaitOptions): Promise<T>;
  /** Controlled mode: moves this partner's clock forward (`90s`, `24h`, `35d`). */
  advance(by: string): Promise<void>;
  /** Controlled mode: a `/sandbox/*` call; when the target refuses it the check is skipped. */
  control(method: string, path: string, body?: unknown): Promise<Answer>;
}
