import type { JsonValue } from './records.js';
import type { RequestFault, RequestRecord } from './request-records.js';
import { TextArena } from './text-arena.js';

/** What a ring shows of a stored answer (the inspector redacts secrets here). */
export type AnswerFilter = (text: string) => string;

// An entry's numbers, at `slot * NUMBERS` in one Float64Array (integers below 2^53 are exact).
const SEQ = 0;
const STATUS = 1;
const DURATION = 2;
const REPLAYED = 3;
const CREATED_AT = 4;
/**
 * Where the entry's texts start in the arena: the head (id, path and query as one text, split by
 * their lengths in UTF-16 code units), then the answer. Two writes per entry rather than four:
 * each write is a call into native code, which costs more than the copy for texts this short.
 */
const TEXT_CHUNK = 5;
const TEXT_OFFSET = 6;
const HEAD_BYTES = 7;
const ID_UNITS = 8;
const PATH_UNITS = 9;
/** -1: no query. */
const QUERY_UNITS = 10;
/** -1: no answer. */
const ANSWER_BYTES = 11;
const NUMBERS = 12;

// An entry's other values, at `slot * VALUES` in one array.
const METHOD = 0;
const IDEMPOTENCY_KEY = 1;
const ERROR_CODE = 2;
const AUTHORIZATION = 3;
const CONTENT_TYPE = 4;
const USER_AGENT = 5;
const REQUEST_BODY = 6;
const FAULT = 7;
const VALUES = 8;

type Value = string | JsonValue | RequestFault | null;

/**
 * One partner's request log, oldest first, in a circular buffer rather than one object per
 * request. Why: the log keeps each request for a thousand requests, long enough to be promoted
 * out of the young generation, and a row object per request (with its answer and its fresh id,
 * path and header strings) made the log cost the garbage collector more than the rest of the
 * inspector together. Here a logged request adds no object: its numbers go to a Float64Array, its
 * id, path, query and answer are written as bytes to a TextArena outside the heap, and the few
 * strings that repeat (user agent, content type) are shared. Each entry's numbers and values sit
 * side by side (row-major), so an append touches a few neighbouring cache lines, not one per
 * field. Rows are built only when read.
 *
 * Positions are logical: 0 is the oldest entry, `count - 1` the newest. Entries are in `seq`
 * order, so a `seq` is found by binary search.
 */
export class RequestRing {
  /** Entries held now. */
  count = 0;
  /** Entries ever appended (a clock the lazy id index and change tracking count against). */
  appended = 0;
  /** `appended` when the id index last caught up with this ring (-Infinity: index everything). */
  indexedThrough = 0;
  /** `appended` when the last change set was taken (-Infinity: everything is unwritten). */
  flushedThrough = 0;
  /** Queued for the id index / for the next change set (so each ring is queued once). */
  awaitingIndex = false;
  awaitingFlush = false;

  private start = 0;
  /** Slots - 1 (slots are a power of two). */
  private mask: number;
  private numbers: Float64Array;
  private values: Value[];
  private texts = new TextArena();

  constructor(
    readonly partnerId: string,
    capacity: number,
    private readonly showAnswer: AnswerFilter,
  ) {
    let slots = 16;
    while (slots < capacity) slots *= 2;
    this.mask = slots - 1;
    this.numbers = new Float64Array(slots * NUMBERS);
    this.values = new Array<Value>(slots * VALUES).fill(null);
  }

  /** Adds the newest entry (its `seq` must be above every held one); grows when full. */
  push(row: RequestRecord): void {
    if (this.count > this.mask) this.grow();
    const slot = (this.start + this.count) & this.mask;
    const texts = this.texts;
    const query = row.query ?? '';
    const answer = row.response_text ?? '';
    texts.reserve(row.id.length + row.path.length + query.length + answer.length);
    const n = this.numbers;
    const at = slot * NUMBERS;
    n[at + TEXT_CHUNK] = texts.chunkNumber;
    n[at + TEXT_OFFSET] = texts.offset;
    n[at + HEAD_BYTES] = texts.put(row.id + row.path + query);
    n[at + ID_UNITS] = row.id.length;
    n[at + PATH_UNITS] = row.path.length;
    n[at + QUERY_UNITS] = row.query === null ? -1 : query.length;
    n[at + ANSWER_BYTES] = row.response_text === null ? -1 : texts.put(answer);
    n[at + SEQ] = row.seq;
    n[at + STATUS] = row.status;
    n[at + DURATION] = row.duration_cms;
    n[at + REPLAYED] = row.idempotent_replayed ? 1 : 0;
    n[at + CREATED_AT] = row.created_at_ms;
    const v = this.values;
    const vat = slot * VALUES;
    v[vat + METHOD] = row.method;
    v[vat + IDEMPOTENCY_KEY] = row.idempotency_key;
    v[vat + ERROR_CODE] = row.error_code;
    v[vat + AUTHORIZATION] = row.authorization;
    v[vat + CONTENT_TYPE] = shared(row.content_type);
    v[vat + USER_AGENT] = shared(row.user_agent);
    v[vat + REQUEST_BODY] = row.request_body;
    v[vat + FAULT] = row.fault ?? null;
    this.count++;
    this.appended++;
  }

  /** Drops the oldest entry. */
  shift(): void {
    const slot = this.start;
    // Let the dropped body and key go now, not when the slot is reused.
    this.values[slot * VALUES + REQUEST_BODY] = null;
    this.values[slot * VALUES + IDEMPOTENCY_KEY] = null;
    this.values[slot * VALUES + FAULT] = null;
    this.start = (slot + 1) & this.mask;
    this.count--;
    if (this.count === 0) this.texts.releaseAll();
    else this.texts.releaseBefore(this.number(this.start, TEXT_CHUNK));
  }

  id(position: number): string {
    const slot = (this.start + position) & this.mask;
    return this.head(slot).slice(0, this.number(slot, ID_UNITS));
  }

  seq(position: number): number {
    return this.number((this.start + position) & this.mask, SEQ);
  }

  /**
   * The entry at a position as a row (built on demand; rows are never stored), its answer as the
   * filter shows it (`raw`: as stored, for moving entries between rings).
   */
  row(position: number, raw = false): RequestRecord {
    const slot = (this.start + position) & this.mask;
    const head = this.head(slot);
    const idUnits = this.number(slot, ID_UNITS);
    const pathEnd = idUnits + this.number(slot, PATH_UNITS);
    const queryUnits = this.number(slot, QUERY_UNITS);
    const answerBytes = this.number(slot, ANSWER_BYTES);
    const answer = answerBytes < 0 ? null : this.text(slot, this.number(slot, HEAD_BYTES), answerBytes);
    const fault = this.value(slot, FAULT) as RequestFault | null;
    return {
      id: head.slice(0, idUnits),
      seq: this.number(slot, SEQ),
      partner_id: this.partnerId,
      method: this.value(slot, METHOD) as string,
      path: head.slice(idUnits, pathEnd),
      query: queryUnits < 0 ? null : head.slice(pathEnd, pathEnd + queryUnits),
      status: this.number(slot, STATUS),
      duration_cms: this.number(slot, DURATION),
      idempotency_key: this.value(slot, IDEMPOTENCY_KEY) as string | null,
      idempotent_replayed: this.number(slot, REPLAYED) === 1,
      error_code: this.value(slot, ERROR_CODE) as string | null,
      authorization: this.value(slot, AUTHORIZATION) as string | null,
      content_type: this.value(slot, CONTENT_TYPE) as string | null,
      user_agent: this.value(slot, USER_AGENT) as string | null,
      request_body: this.value(slot, REQUEST_BODY) as JsonValue | null,
      response_text: answer === null || raw ? answer : this.showAnswer(answer),
      created_at_ms: this.number(slot, CREATED_AT),
      ...(fault !== null && { fault }),
    };
  }

  /** Every entry as rows, oldest first. */
  rows(raw = false): RequestRecord[] {
    const rows: RequestRecord[] = [];
    for (let i = 0; i < this.count; i++) rows.push(this.row(i, raw));
    return rows;
  }

  /** Position of the entry with this `seq`, or -1. */
  positionOfSeq(seq: number): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.seq(mid) < seq) low = mid + 1;
      else high = mid;
    }
    return low < this.count && this.seq(low) === seq ? low : -1;
  }

  /** A new ring with this one's entries, changed by `change` (rows in, rows out, `seq` order). */
  rebuilt(change: (rows: RequestRecord[]) => RequestRecord[] = (rows) => rows): RequestRing {
    const rows = change(this.rows(true));
    const ring = new RequestRing(this.partnerId, rows.length, this.showAnswer);
    for (const row of rows) ring.push(row);
    return ring;
  }

  private number(slot: number, field: number): number {
    return this.numbers[slot * NUMBERS + field] as number;
  }

  private value(slot: number, field: number): Value {
    return this.values[slot * VALUES + field] ?? null;
  }

  /** The entry's id, path and query as one text. */
  private head(slot: number): string {
    return this.text(slot, 0, this.number(slot, HEAD_BYTES));
  }

  private text(slot: number, skip: number, bytes: number): string {
    const offset = this.number(slot, TEXT_OFFSET) + skip;
    return this.texts.read(this.number(slot, TEXT_CHUNK), offset, bytes);
  }

  /** Bytes the ring holds: its numbers and the texts in its arena. */
  get bytesHeld(): number {
    return this.numbers.byteLength + this.texts.bytesHeld;
  }

  /** Twice the room: the entries move, oldest first, into fresh storage. */
  private grow(): void {
    const room = new RequestRing(this.partnerId, (this.mask + 1) * 2, this.showAnswer);
    for (let i = 0; i < this.count; i++) room.push(this.row(i, true));
    this.mask = room.mask;
    this.numbers = room.numbers;
    this.values = room.values;
    this.texts = room.texts;
    this.start = 0;
  }
}

const MAX_SHARED = 256;
const sharedStrings = new Map<string, string>();

/**
 * The one copy of a header value seen before (user agents and content types repeat): the
 * request's own string can then die young. Bounded; a value beyond the bound is kept as it is.
 */
function shared(text: string | null): string | null {
  if (text === null) return null;
  const known = sharedStrings.get(text);
  if (known !== undefined) return known;
  if (sharedStrings.size < MAX_SHARED) sharedStrings.set(text, text);
  return text;
}
