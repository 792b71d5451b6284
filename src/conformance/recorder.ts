// The exchanges of a run, per check (or shared set-up), in the order they happened: the report's
// failing request comes from here, and `--compare` pairs two runs' exchanges by position.
import type { Answer, ExchangeSink } from './http.js';

export interface ScopedSink extends ExchangeSink {
  /** The number of exchanges so far (to forget a poll's misses). */
  mark(): number;
  /** Forgets the exchanges after `mark` (a poll that did not find what it waited for). */
  rollback(mark: number): void;
  last(): Answer | undefined;
}

/** At most this many exchanges are kept per scope (a runaway poll cannot fill memory). */
const MAX_PER_SCOPE = 2000;

export class Recorder {
  private readonly scopes = new Map<string, Answer[]>();
  /** Every answer recorded, polls' misses included: how many requests the run sent. */
  requests = 0;
  private readonly eventTypes = new Map<string, string[]>();

  /** The event types a scope's webhook endpoints received, in the order their events happened. */
  addEvents(scope: string, types: readonly string[]): void {
    const list = this.eventTypes.get(scope) ?? [];
    list.push(...types);
    this.eventTypes.set(scope, list);
  }

  events(scope: string): readonly string[] {
    return this.eventTypes.get(scope) ?? [];
  }

  sink(scope: string): ScopedSink {
    let list = this.scopes.get(scope);
    if (!list) {
      list = [];
      this.scopes.set(scope, list);
    }
    const answers = list;
    const self = this;
    return {
      record(answer) {
        self.requests += 1;
        if (answers.length < MAX_PER_SCOPE) answers.push(answer);
      },
      mark: () => answers.length,
      rollback(mark) {
        answers.length = Math.min(answers.length, mark);
      },
      last: () => answers.at(-1),
    };
  }

  exchanges(scope: string): readonly Answer[] {
    return this.scopes.get(scope) ?? [];
  }

  scopeNames(): string[] {
    return [...new Set([...this.scopes.keys(), ...this.eventTypes.keys()])];
  }
}
