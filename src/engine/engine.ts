import { type BankingCalendar, bankingCalendar } from '../finance/business-days.js';
import { CodedError } from '../lib/coded-error.js';
import type { IdSource, RandomBytes } from '../lib/ids.js';
import type { Random, RandomSource } from '../lib/random.js';
import { type RandomStream, type RandomStreams, unseededStreams } from '../lib/random-streams.js';
import type { Persistence } from '../store/persistence.js';
import { LATEST_CLOCK_MS } from '../store/record-rules.js';
import type { EventRecord, JsonObject, PartnerRecord } from '../store/records.js';
import { StorageUnavailableError } from '../store/storage-health.js';
import type { Store } from '../store/store.js';
import { type Clock, clockReading, fixedClock, frozen, initialClock, movedTo, resumed } from './clock.js';
import type { DomainContext, JobHandler } from './context.js';
import type { EventType } from './event-types.js';
import type { JobPayloadSchema } from './job-payloads.js';
import { partnerClock } from './partner-clock.js';
import { Scheduler } from './scheduler.js';
import { DEFAULT_TIMINGS, type Timings } from './timings.js';

export interface EngineDeps {
  store: Store;
  ids: IdSource;
  randomBytes: RandomBytes;
  /** Replaces each partner's random numbers (tests); the partner's stream (`--seed`) otherwise. */
  random?: RandomSource;
  realNow: () => number;
  persistence: Persistence;
  onError: (message: string, error: unknown) => void;
  /** Automatic delays; DESIGN's defaults when absent. */
  timings?: Timings;
  /** Hosted quota: events kept per partner (the oldest dropped beyond it); unlimited when absent. */
  eventsKept?: number | undefined;
  /** Per-partner streams (`--seed`); every partner shares `ids`/`randomBytes` when absent. */
  streams?: RandomStreams;
  /** Where new and reset partner clocks start (`--start-time`); real time when absent. */
  startTimeMs?: number | undefined;
  /** The banking calendar; the national one when absent. */
  calendar?: BankingCalendar;
}

const DAY_MS = 86_400_000;
/** The longest single advance: ten years, so a typo cannot run the scheduler for hours. */
export const MAX_ADVANCE_MS = 3660 * DAY_MS;

/** Told of every event right after it is appended (webhook fan-out). */
export type EventSink = (event: EventRecord) => void;

export interface ClockView {
  now: string;
  frozen: boolean;
}

/** The clock's answer for a partner row whose clock reads `nowMs` (the API's and the engine's). */
export function clockViewAt(partner: PartnerRecord, nowMs: number): ClockView {
  return { now: new Date(nowMs).toISOString(), frozen: partner.clock.frozen_at_ms !== null };
}

/**
 * The partner worlds' engine: builds domain contexts, appends events, runs timed jobs, and moves
 * partner clocks. Every automatic move and every control call goes through here, so each state
 * change has one path: domain function -> event log -> sinks.
 */
export class Engine {
  readonly scheduler: Scheduler;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly payloads = new Map<string, JobPayloadSchema>();
  private readonly sinks: EventSink[] = [];
  /** One live clock per partner: it reads the partner's state on each call, so it never goes stale. */
  private readonly clocks = new Map<string, Clock>();
  private readonly liveContexts = new Map<string, DomainContext>();
  private readonly randoms = new Map<string, Random>();

  private readonly streams: RandomStreams;
  readonly calendar: BankingCalendar;

  constructor(private readonly deps: EngineDeps) {
    this.calendar = deps.calendar ?? bankingCalendar();
    this.streams = deps.streams ?? unseededStreams({ ids: deps.ids, randomBytes: deps.randomBytes });
    this.scheduler = new Scheduler({
      store: deps.store,
      realNow: deps.realNow,
      newJobId: (partnerId) => this.stream(partnerId).ids('job_'),
      runJob: (job) => {
        const handler = this.handlers.get(job.kind);
        if (!handler) throw new Error(`no handler for job kind "${job.kind}"`);
        handler(this.context(job.partner_id, fixedClock(job.due_at_ms)), job.payload);
      },
      onError: deps.onError,
      afterWake: () => {
        deps.persistence.flush().catch((error: unknown) => {
          // Rolled back; the jobs run again once the store can write (logged once, by its health).
          if (!(error instanceof StorageUnavailableError))
            deps.onError('persisting after timed jobs failed', error);
        });
      },
    });
    // A partner that leaves memory (deleted, expired, unloaded, moved to another instance) leaves
    // nothing behind here: no timer, no cached clock, context or random stream.
    deps.store.onEvicted((partnerId) => this.forget(partnerId));
    // A removal that could not be written put the partner back: its timer runs again.
    deps.store.removals.onRestored((partnerId) => this.scheduler.arm(partnerId));
  }

  /** Drops what the engine keeps for a partner in memory (it is no longer in the store). */
  forget(partnerId: string): void {
    this.scheduler.disarm(partnerId);
    this.clocks.delete(partnerId);
    this.liveContexts.delete(partnerId);
    this.randoms.delete(partnerId);
    this.streams.forget?.(partnerId);
  }

  /** Registers the body of a job kind and the shape of its payload (imports are checked against it). */
  handle(kind: string, handler: JobHandler, payload: JobPayloadSchema): void {
    this.handlers.set(kind, handler);
    this.payloads.set(kind, payload);
  }

  /** The payload shape of a job kind the engine runs; undefined for a kind it does not know. */
  jobPayload(kind: string): JobPayloadSchema | undefined {
    return this.payloads.get(kind);
  }

  onEvent(sink: EventSink): void {
    this.sinks.push(sink);
  }

  /** The partner's own stream of ids and random bytes. */
  stream(partnerId: string): RandomStream {
    return this.streams.partner(partnerId);
  }

  clock(partnerId: string): Clock {
    let clock = this.clocks.get(partnerId);
    if (!clock) {
      clock = partnerClock(this.deps, partnerId);
      this.clocks.set(partnerId, clock);
    }
    return clock;
  }

  /** The domain context of a partner; `clock` defaults to the partner's live clock. */
  context(partnerId: string, clock: Clock = this.clock(partnerId)): DomainContext {
    // The context over a partner's live clock is the same object every time: built once, so a
    // request does not pay for a fresh set of closures.
    const live = clock === this.clock(partnerId);
    const cached = live ? this.liveContexts.get(partnerId) : undefined;
    if (cached) return cached;
    const context = this.buildContext(partnerId, clock);
    if (live) this.liveContexts.set(partnerId, context);
    return context;
  }

  private buildContext(partnerId: string, clock: Clock): DomainContext {
    return {
      store: this.deps.store,
      partnerId,
      clock,
      ids: this.stream(partnerId).ids,
      randomBytes: this.stream(partnerId).randomBytes,
      random: this.random(partnerId),
      timings: this.deps.timings ?? DEFAULT_TIMINGS,
      calendar: this.calendar,
      emit: (type, data) => this.emit(partnerId, clock, type, data),
      schedule: (kind, payload, dueAtMs) => this.scheduler.schedule(partnerId, kind, payload, dueAtMs),
      cancelJob: (jobId) => this.scheduler.cancel(jobId),
    };
  }

  /**
   * The partner's random numbers for random choices (webhook chaos): its own stream, so `--seed`
   * replays them, unless a source was injected. Made once per partner, so it continues where it was.
   */
  random(partnerId: string): Random {
    let random = this.randoms.get(partnerId);
    if (!random) {
      random = this.deps.random ? this.deps.random(partnerId) : this.stream(partnerId);
      this.randoms.set(partnerId, random);
    }
    return random;
  }

  emit(partnerId: string, clock: Clock, type: EventType, data: JsonObject): EventRecord {
    const event = this.deps.store.events.insert({
      id: this.stream(partnerId).ids('evt_'),
      seq: this.deps.store.nextSeq(),
      partner_id: partnerId,
      type,
      timestamp: clock.iso(),
      data,
    });
    this.dropOldEvents(partnerId);
    for (const sink of this.sinks) {
      try {
        sink(event);
      } catch (error) {
        this.deps.onError(`event sink failed for ${event.id}`, error);
      }
    }
    return event;
  }

  /** Keeps a partner's event log within the hosted quota (its deliveries keep their own record). */
  private dropOldEvents(partnerId: string): void {
    const limit = this.deps.eventsKept;
    if (limit === undefined) return;
    const log = this.deps.store.eventsByPartner.rows(partnerId);
    while (log.length > limit) {
      const oldest = log[0];
      if (!oldest) break;
      this.deps.store.events.delete(oldest.id);
    }
  }

  clockView(partnerId: string): ClockView {
    const partner = this.partner(partnerId);
    return clockViewAt(partner, clockReading(partner.clock, this.deps.realNow()));
  }

  freeze(partnerId: string): ClockView {
    const partner = this.partner(partnerId);
    this.deps.store.partners.replace({ ...partner, clock: frozen(partner.clock, this.deps.realNow()) });
    this.scheduler.arm(partnerId);
    return this.clockView(partnerId);
  }

  resume(partnerId: string): ClockView {
    const partner = this.partner(partnerId);
    this.deps.store.partners.replace({ ...partner, clock: resumed(partner.clock, this.deps.realNow()) });
    this.scheduler.arm(partnerId);
    return this.clockView(partnerId);
  }

  /** Puts the clock back at its start (`--start-time`, else real time now), keeping its mode (reset only). */
  restartClock(partnerId: string): ClockView {
    const partner = this.partner(partnerId);
    const mode = partner.clock.frozen_at_ms === null ? 'running' : 'frozen';
    const clock = initialClock(mode, this.deps.realNow(), this.deps.startTimeMs);
    this.deps.store.partners.replace({ ...partner, clock });
    this.scheduler.arm(partnerId);
    return this.clockView(partnerId);
  }

  /**
   * Moves the partner clock forward to `targetMs`, first running every job that falls due on the
   * way (each seeing its own due time). Synchronous: when it returns, the world is at the target.
   */
  advance(partnerId: string, targetMs: number): ClockView {
    const now = clockReading(this.partner(partnerId).clock, this.deps.realNow());
    if (targetMs < now) {
      throw new CodedError(
        'clock_backwards',
        `Cannot move the clock back from ${new Date(now).toISOString()} to ${new Date(targetMs).toISOString()}. Clocks only move forward.`,
        'to',
      );
    }
    if (targetMs - now > MAX_ADVANCE_MS) {
      throw new CodedError(
        'clock_jump_too_large',
        `One advance moves the clock at most ${MAX_ADVANCE_MS / DAY_MS} days; ${new Date(targetMs).toISOString()} is further. Advance in steps.`,
        'by',
      );
    }
    if (targetMs >= LATEST_CLOCK_MS) {
      throw new CodedError(
        'clock_jump_too_large',
        `A partner clock reads at most ${new Date(LATEST_CLOCK_MS - 1).toISOString()} (what it dates must stay within year 9999); ${new Date(targetMs).toISOString()} is later.`,
        'to',
      );
    }
    this.scheduler.runDue(partnerId, targetMs);
    const partner = this.partner(partnerId);
    this.deps.store.partners.replace({
      ...partner,
      clock: movedTo(partner.clock, targetMs, this.deps.realNow()),
    });
    this.scheduler.arm(partnerId);
    return this.clockView(partnerId);
  }

  start(): void {
    this.scheduler.start();
  }

  stop(): void {
    this.scheduler.stop();
  }

  private partner(partnerId: string) {
    const partner = this.deps.store.partners.get(partnerId);
    if (!partner) throw new Error(`unknown partner ${partnerId}`);
    return partner;
  }
}
