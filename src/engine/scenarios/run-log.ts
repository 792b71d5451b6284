import type { StepResult } from './runner.js';

/** One run as the dashboard shows it while it runs and after. */
export interface RunRecord {
  id: string;
  partnerId: string;
  scenario: string;
  status: 'running' | 'passed' | 'failed';
  /** Real wall-clock milliseconds. */
  startedAtMs: number;
  /** Every step of the file, in order; `results` fills as they complete. */
  steps: { index: number; name: string; kind: string }[];
  results: StepResult[];
}

export type RunListener = (run: RunRecord, step?: StepResult) => void;

/** How many finished runs each partner keeps (in memory only: a restart forgets them). */
const KEPT_PER_PARTNER = 20;

/**
 * Scenario runs in progress and the last few finished ones, per partner, with listeners told of
 * every completed step. The run endpoint writes here; the dashboard reads and listens.
 */
export class ScenarioRunLog {
  private readonly runs = new Map<string, RunRecord[]>();
  private readonly listeners = new Map<string, Set<RunListener>>();

  start(run: Omit<RunRecord, 'status' | 'results'>): RunRecord {
    const record: RunRecord = { ...run, status: 'running', results: [] };
    const list = this.runs.get(run.partnerId) ?? [];
    list.unshift(record);
    if (list.length > KEPT_PER_PARTNER) list.length = KEPT_PER_PARTNER;
    this.runs.set(run.partnerId, list);
    this.tell(record);
    return record;
  }

  step(run: RunRecord, result: StepResult): void {
    run.results.push(result);
    this.tell(run, result);
  }

  finish(run: RunRecord, status: 'passed' | 'failed'): void {
    run.status = status;
    this.tell(run);
  }

  /** The partner's runs, newest first. */
  list(partnerId: string): readonly RunRecord[] {
    return this.runs.get(partnerId) ?? [];
  }

  get(partnerId: string, runId: string): RunRecord | undefined {
    return this.list(partnerId).find((run) => run.id === runId);
  }

  /** Listens to one partner's runs; returns the function that stops listening. */
  listen(partnerId: string, listener: RunListener): () => void {
    const set = this.listeners.get(partnerId) ?? new Set();
    set.add(listener);
    this.listeners.set(partnerId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(partnerId);
    };
  }

  private tell(run: RunRecord, step?: StepResult): void {
    for (const listener of this.listeners.get(run.partnerId) ?? []) listener(run, step);
  }
}

const logs = new WeakMap<object, ScenarioRunLog>();

/** The run log of one app (keyed by its deps, like selfFetch). */
export function scenarioRunLog(deps: object): ScenarioRunLog {
  let log = logs.get(deps);
  if (!log) {
    log = new ScenarioRunLog();
    logs.set(deps, log);
  }
  return log;
}
