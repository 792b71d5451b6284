import type { JobRecord, JsonObject } from '../store/records.js';
import type { Store } from '../store/store.js';
import { clockReading } from './clock.js';

export interface SchedulerDeps {
  store: Store;
  realNow: () => number;
  /** Runs one job; the scheduler has already removed it from the store. */
  runJob: (job: JobRecord) => void;
  /** A fresh job id from the partner's own random stream. */
  newJobId: (partnerId: string) => string;
  onError: (message: string, error: unknown) => void;
  /** Called after a timer-driven run, so what the jobs wrote can be made durable. */
  afterWake: () => void;
}

// setTimeout cannot wait longer than ~24.8 days; a longer wait re-arms on wake-up.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Timed jobs on partner clocks. Jobs live in the store (so they survive restarts) in one sorted
 * index per partner. `runDue` runs every job due up to a time in due order — including jobs that
 * earlier jobs schedule inside the window — so its cost is linear in the jobs that fall due.
 * A running clock wakes by one real timer per partner armed for its earliest job (no polling);
 * a frozen clock only wakes for jobs already due.
 */
export class Scheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Real ms at which each armed timer fires. */
  private readonly firesAt = new Map<string, number>();
  private readonly running = new Set<string>();
  private stopped = false;

  constructor(private readonly deps: SchedulerDeps) {}

  schedule(partnerId: string, kind: string, payload: JsonObject, dueAtMs: number): JobRecord {
    const job = this.deps.store.jobs.insert({
      id: this.deps.newJobId(partnerId),
      seq: this.deps.store.nextSeq(),
      partner_id: partnerId,
      kind,
      due_at_ms: dueAtMs,
      payload,
    });
    if (!this.running.has(partnerId)) this.armFor(partnerId, dueAtMs);
    return job;
  }

  cancel(jobId: string): void {
    const job = this.deps.store.jobs.delete(jobId);
    if (job && !this.running.has(job.partner_id)) this.arm(job.partner_id);
  }

  /** Pending jobs of a partner in due order (a sorted copy, for inspection). */
  pending(partnerId: string): readonly JobRecord[] {
    return this.deps.store.jobsByPartner.rows(partnerId);
  }

  /** The partner's earliest pending job. */
  next(partnerId: string): JobRecord | undefined {
    return this.deps.store.jobsByPartner.peek(partnerId);
  }

  /** Runs every job of the partner due at or before `uptoMs`, in due order. Returns how many ran. */
  runDue(partnerId: string, uptoMs: number): number {
    if (this.running.has(partnerId)) return 0;
    this.running.add(partnerId);
    let ran = 0;
    try {
      for (;;) {
        const next = this.deps.store.jobsByPartner.peek(partnerId);
        if (!next || next.due_at_ms > uptoMs) break;
        this.deps.store.jobs.delete(next.id);
        ran++;
        try {
          this.deps.runJob(next);
        } catch (error) {
          // A failing job must not stop the partner's world: it is logged and dropped.
          this.deps.onError(`job ${next.kind} ${next.id} failed`, error);
        }
      }
    } finally {
      this.running.delete(partnerId);
    }
    this.arm(partnerId);
    return ran;
  }

  /** (Re)arms the partner's real timer for its earliest job, given its clock's current state. */
  arm(partnerId: string): void {
    const existing = this.timers.get(partnerId);
    if (existing) clearTimeout(existing);
    this.timers.delete(partnerId);
    this.firesAt.delete(partnerId);
    if (this.stopped) return;
    const partner = this.deps.store.partners.get(partnerId);
    const next = this.deps.store.jobsByPartner.peek(partnerId);
    if (!partner || !next) return;
    const now = clockReading(partner.clock, this.deps.realNow());
    const wait = next.due_at_ms - now;
    if (partner.clock.frozen_at_ms !== null && wait > 0) return;
    const delay = Math.min(Math.max(wait, 0), MAX_TIMER_MS);
    const timer = setTimeout(() => this.wake(partnerId), delay);
    timer.unref();
    this.timers.set(partnerId, timer);
    this.firesAt.set(partnerId, this.deps.realNow() + delay);
  }

  /**
   * A new job: the armed timer stays when it fires no later than the job needs. Re-arming on
   * every new job pushed a due job back by a timer tick each time, so a stream of events closer
   * together than a tick (a burst of API calls) kept every delivery waiting until it stopped.
   */
  private armFor(partnerId: string, dueAtMs: number): void {
    const firesAt = this.firesAt.get(partnerId);
    const partner = this.deps.store.partners.get(partnerId);
    if (firesAt !== undefined && partner && !this.stopped) {
      const realNow = this.deps.realNow();
      const wait = dueAtMs - clockReading(partner.clock, realNow);
      // A frozen clock never wakes for a job in its future; a running one wakes at its due time.
      if (partner.clock.frozen_at_ms !== null && wait > 0) return;
      if (firesAt <= realNow + Math.max(wait, 0)) return;
    }
    this.arm(partnerId);
  }

  /**
   * Real time (ms since the epoch) at which the partner's earliest job falls due: now if it
   * already has, null if it has none or its clock is frozen before it (only a clock move can
   * bring it). Where an idle partner must be loaded again to run on time.
   */
  nextDueRealMs(partnerId: string): number | null {
    const partner = this.deps.store.partners.get(partnerId);
    const next = this.deps.store.jobsByPartner.peek(partnerId);
    if (!partner || !next) return null;
    const realNow = this.deps.realNow();
    const wait = next.due_at_ms - clockReading(partner.clock, realNow);
    if (wait <= 0) return realNow;
    return partner.clock.frozen_at_ms === null ? realNow + wait : null;
  }

  /** Stops the partner's timer and forgets it (the partner left this instance's memory). */
  disarm(partnerId: string): void {
    const timer = this.timers.get(partnerId);
    if (timer) clearTimeout(timer);
    this.timers.delete(partnerId);
    this.firesAt.delete(partnerId);
  }

  /** Arms every partner (after a restart). */
  start(): void {
    this.stopped = false;
    this.armAll();
  }

  /** Re-arms every partner unless stopped (jobs a rollback brought back are due again). */
  armAll(): void {
    for (const partner of this.deps.store.partners.values()) this.arm(partner.id);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.firesAt.clear();
  }

  /** A timer's callback: nothing it throws may escape (it would end the process). */
  private wake(partnerId: string): void {
    this.timers.delete(partnerId);
    this.firesAt.delete(partnerId);
    try {
      const partner = this.deps.store.partners.get(partnerId);
      if (!partner) return;
      if (this.runDue(partnerId, clockReading(partner.clock, this.deps.realNow())) > 0) this.deps.afterWake();
    } catch (error) {
      // A partner row that cannot be read (its clock): its jobs wait until it is mended or reset.
      this.deps.onError(`timed jobs of partner ${partnerId} could not run`, error);
    }
  }
}
