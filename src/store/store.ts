import { type ChangeSet, TOMBSTONE_TABLE } from './change-set.js';
import { creditOfferIndexes, loanIndexes, transactionIndexes } from './credit-indexes.js';
import { biometricsSessionIndexes, customerIndexes } from './customer-indexes.js';
import { HeapIndex } from './heap-index.js';
import { byField, SortedIndex } from './indexes.js';
import { PartnerRemovals } from './partner-removals.js';
import { PARTNER_STREAM_PREFIX, type RandomCounterRecord } from './random-counters.js';
import { nextExactSeq } from './record-rules.js';
import type {
  BiometricsSessionRecord,
  CredentialRecord,
  CreditOfferRecord,
  CustomerRecord,
  DeliveryRecord,
  DocumentRecord,
  EventRecord,
  FaultRuleRecord,
  IdempotencyRecord,
  JobRecord,
  LoanRecord,
  PartnerRecord,
  PartnerTombstoneRecord,
  SimulationRecord,
  TransactionRecord,
  WebhookEndpointRecord,
} from './records.js';
import { RequestLogTable } from './request-log-table.js';
import type { AnswerFilter } from './request-ring.js';
import type { SnapshotRecord } from './snapshot-records.js';
import { type PersistedTable, Table } from './table.js';
import { bySeq, copyMeta, type Snapshot, type StoreMeta, type TableChanges } from './types.js';
import { deliveryIndexes, webhookEndpointIndexes } from './webhook-indexes.js';
import { upgradeEndpointRow } from './webhook-records.js';

export type { Snapshot, StoreMeta } from './types.js';

export interface StoreOptions {
  /** How a logged answer is shown once it leaves the request log (the inspector's redaction). */
  showRequestAnswer?: AnswerFilter | undefined;
}

/** In-memory tables with the indexes the queries need. */
export class Store {
  meta: StoreMeta;

  readonly partners = new Table<PartnerRecord>('partners');
  readonly credentials = new Table<CredentialRecord>('credentials');
  readonly credentialsByPartner = this.credentials.index(
    new SortedIndex<CredentialRecord>(
      (r) => r.partner_id,
      byField((r) => r.created_at),
    ),
  );
  /** Partners by the partner that created them, oldest first (`GET /sandbox/partners`). */
  readonly partnersByCreator = this.partners.index(
    new SortedIndex<PartnerRecord>((r) => r.created_by, bySeq),
  );
  readonly idempotency = new Table<IdempotencyRecord>('idempotency');

  readonly events = new Table<EventRecord>('events');
  /** Event log in insertion order, per partner, per partner+resource and per partner+type. */
  readonly eventsByPartner = this.events.index(new SortedIndex<EventRecord>((r) => r.partner_id, bySeq));
  readonly eventsByResource = this.events.index(
    new SortedIndex<EventRecord>((r) => `${r.partner_id}|${r.type.slice(0, r.type.indexOf('.'))}.*`, bySeq),
  );
  readonly eventsByType = this.events.index(
    new SortedIndex<EventRecord>((r) => `${r.partner_id}|${r.type}`, bySeq),
  );

  readonly jobs = new Table<JobRecord>('jobs');
  /** Pending jobs per partner in due order (ties in scheduling order). */
  readonly jobsByPartner = this.jobs.index(
    // A heap, not a sorted array: draining due jobs from the front must not cost O(pending) each.
    new HeapIndex<JobRecord>(
      (r) => r.partner_id,
      (a, b) => a.due_at_ms - b.due_at_ms || a.seq - b.seq,
    ),
  );

  readonly customers = new Table<CustomerRecord>('customers');
  /** Sorted lists per order (and per status), unique cpf/cnpj per partner, external_id groups. */
  readonly customerIdx = customerIndexes(this.customers);
  readonly documents = new Table<DocumentRecord>('documents');
  readonly biometricsSessions = new Table<BiometricsSessionRecord>('biometrics_sessions');
  readonly biometricsSessionIdx = biometricsSessionIndexes(this.biometricsSessions);

  readonly creditOffers = new Table<CreditOfferRecord>('credit_offers');
  readonly creditOfferIdx = creditOfferIndexes(this.creditOffers);
  readonly simulations = new Table<SimulationRecord>('simulations');
  readonly loans = new Table<LoanRecord>('loans');
  readonly loanIdx = loanIndexes(this.loans);
  readonly transactions = new Table<TransactionRecord>('transactions');
  readonly transactionIdx = transactionIndexes(this.transactions);

  readonly webhookEndpoints = new Table<WebhookEndpointRecord>('webhook_endpoints', upgradeEndpointRow);
  readonly webhookEndpointIdx = webhookEndpointIndexes(this.webhookEndpoints);
  readonly deliveries = new Table<DeliveryRecord>('webhook_deliveries');
  readonly deliveryIdx = deliveryIndexes(this.deliveries);

  /** Draws so far of each partner's seeded random stream (`--seed`): rows of the partner, moved with it. */
  readonly randomCounters = new Table<RandomCounterRecord>('random_counters');

  /** API-side fault rules per partner, in creation order (`/v3/sandbox/faults`). */
  readonly faultRules = new Table<FaultRuleRecord>('fault_rules');
  readonly faultRulesByPartner = this.faultRules.index(
    new SortedIndex<FaultRuleRecord>((r) => r.partner_id, bySeq),
  );

  /** Named snapshots of partner worlds (`POST /v3/sandbox/snapshots`). */
  readonly snapshots = new Table<SnapshotRecord>('snapshots');
  /** What stays of gone partners for a while (by partner id and client id): why they are gone. */
  readonly tombstones = new Table<PartnerTombstoneRecord>(TOMBSTONE_TABLE);

  /**
   * The request inspector's ring of recent requests per partner. Answers are kept as sent and
   * passed through `showRequestAnswer` (the inspector's redaction, given by the composition root)
   * wherever an entry leaves the log: reads, change sets, snapshots.
   */
  readonly requests: RequestLogTable;

  /** Tables in the order they are written and restored. */
  private readonly tables: PersistedTable[] = [];
  private tracking = false;
  private undoing = false;
  /** Partners removed for good (see `purgePartner`). */
  readonly removals = new PartnerRemovals(() => this.tables.filter((table) => table !== this.tombstones));
  private readonly evictionListeners: ((partnerId: string) => void)[] = [];

  constructor(signingKey: string, options: StoreOptions = {}) {
    this.meta = { seq: 0, signing_key: signingKey };
    this.requests = new RequestLogTable({ showAnswer: options.showRequestAnswer });
    this.register(this.partners, this.credentials, this.idempotency, this.events, this.jobs);
    this.register(this.customers, this.documents, this.biometricsSessions);
    this.register(this.webhookEndpoints, this.deliveries);
    this.register(this.creditOffers, this.simulations, this.loans, this.transactions);
    this.register(this.requests, this.randomCounters);
    this.register(this.faultRules);
    this.register(this.snapshots, this.tombstones);
  }

  /** Adds tables to the snapshot; later modules call this for the tables they own. */
  register(...tables: PersistedTable[]): void {
    this.tables.push(...tables);
    for (const table of tables) Object.assign(table, { tracking: this.tracking, undoing: this.undoing });
  }

  /**
   * Removes every row of a partner (deletion, expiry) but its tombstones, in one step: the change
   * set names the partner in `purged` instead of listing its rows, so its backend drops them all
   * in one write. Live views of the partner end (as on eviction).
   */
  purgePartner(partnerId: string): void {
    this.removals.remove(partnerId, this.tracking, this.undoing);
    for (const listener of this.evictionListeners) listener(partnerId);
  }

  /** Next value of the store-wide insertion counter, which must stay exact (see seq-repair.ts). */
  nextSeq(): number {
    this.meta.seq = nextExactSeq(this.meta.seq);
    return this.meta.seq;
  }

  partnerCredential(partnerId: string, clientId: string): CredentialRecord | undefined {
    const row = this.credentials.get(clientId);
    return row && row.partner_id === partnerId ? row : undefined;
  }

  snapshot(): Snapshot {
    const tables: Record<string, unknown[]> = {};
    for (const table of this.tables) tables[table.name] = table.dump();
    return { version: 1, meta: copyMeta(this.meta), tables };
  }

  /** Draws so far of a seeded random stream (`partner:<id>`, `server`, `named:<name>`). */
  randomCounter(stream: string): number {
    // A file written before partner streams became rows keeps them in the meta: read on from there.
    return this.randomCounters.get(stream)?.draws ?? this.meta.random_counters?.[stream] ?? 0;
  }

  /** Sets a stream's position (a draw, or a snapshot restoring one partner's stream). */
  setRandomCounter(stream: string, draws: number): void {
    if (stream.startsWith(PARTNER_STREAM_PREFIX)) {
      const row = { id: stream, partner_id: stream.slice(PARTNER_STREAM_PREFIX.length), draws };
      if (this.randomCounters.get(stream)) this.randomCounters.replace(row);
      else this.randomCounters.insert(row);
      return;
    }
    this.meta.random_counters ??= {};
    this.meta.random_counters[stream] = draws;
  }

  restore(snapshot: Snapshot): void {
    this.meta = copyMeta(snapshot.meta);
    for (const table of this.tables) {
      table.load((snapshot.tables[table.name] ?? []) as { id: string }[]);
    }
  }

  /** Starts recording change sets (a backend that writes them calls this once); `undo`: see `rollBack`. */
  trackChanges(options: { undo?: boolean } = {}): void {
    this.tracking = true;
    this.undoing = options.undo === true;
    for (const table of this.tables) Object.assign(table, { tracking: true, undoing: this.undoing });
  }

  /** A change set taken earlier was written: its rows need no undo any more. */
  settle(changes: ChangeSet): void {
    for (const table of this.tables) {
      const rows = changes.tables[table.name];
      if (rows) table.settle?.(rows);
    }
    this.removals.settle(changes.purged);
  }

  /**
   * A write failed: with `undo` tracking, every row changed since the last durable write goes back
   * to what a restart would load (the request log keeps its entries). Returns how many rows moved.
   */
  rollBack(): number {
    const moved = this.tables.reduce((sum, table) => sum + (table.rollBack?.() ?? 0), 0);
    this.removals.rolledBack();
    return moved;
  }

  /** Every row inserted, updated or deleted since the last call, per table; then forgets them. */
  takeChangeSet(): ChangeSet {
    const tables: Record<string, TableChanges> = {};
    const deleters = new Set<string>();
    for (const table of this.tables) {
      // A tombstone outlives its partner: pruning one deletes nothing of a partner anyone holds.
      const changes = table.takeChanges(table.name === TOMBSTONE_TABLE ? undefined : deleters);
      if (changes.upserts.length > 0 || changes.deletes.length > 0) tables[table.name] = changes;
    }
    const [meta, purged] = [copyMeta(this.meta), this.removals.take()];
    const set: ChangeSet = purged ? { meta, tables, purged } : { meta, tables };
    return deleters.size > 0 ? { ...set, deleters: [...deleters] } : set;
  }

  /** Replays a change set written earlier (journal replay, loading from a database). */
  applyChangeSet(changes: ChangeSet): void {
    this.meta = copyMeta(changes.meta);
    for (const id of changes.purged ?? []) this.removals.replay(id);
    for (const table of this.tables) {
      const rows = changes.tables[table.name];
      if (rows) table.apply(rows);
      table.forgetChanges();
    }
  }

  /** A persisted table by its name (backends that load rows table by table). */
  table(name: string): PersistedTable | undefined {
    return this.tables.find((table) => table.name === name);
  }

  /** Runs `fn` untracked: rows it loads or drops are not changes to write back (earlier ones stay). */
  untracked<R>(fn: () => R): R {
    const was = this.tracking;
    for (const table of this.tables) table.tracking = false;
    try {
      return fn();
    } finally {
      for (const table of this.tables) table.tracking = was;
    }
  }

  /**
   * Drops every row of a partner from memory without recording deletes (shared mode: another
   * instance owns the partner now; its rows stay in the database).
   */
  evictPartner(partnerId: string): void {
    for (const table of this.tables) table.evictPartner(partnerId);
    for (const listener of this.evictionListeners) listener(partnerId);
  }

  /** Told when a partner is dropped from memory (live views of it end; its new owner serves them). */
  onEvicted(listener: (partnerId: string) => void): void {
    this.evictionListeners.push(listener);
  }

  /** The current rows of one persisted table (a compaction snapshots the store table by table). */
  dumpTable(name: string): { id: string }[] {
    const table = this.tables.find((t) => t.name === name);
    if (!table) throw new Error(`no table named "${name}"`);
    return table.dump();
  }

  /** How many rows the persisted tables hold together (for restore reports). */
  rowCount(): number {
    let rows = 0;
    for (const table of this.tables) rows += table.size;
    return rows;
  }

  /** Names of the persisted tables, in restore order. */
  tableNames(): string[] {
    return this.tables.map((table) => table.name);
  }
}
