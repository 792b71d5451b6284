import { createHmac } from 'node:crypto';
import type { IdSource, RandomBytes } from './ids.js';

/** Where one partner's (or the server's) generated values come from: ids, secrets, random choices. */
export interface RandomStream {
  ids: IdSource;
  randomBytes: RandomBytes;
  /** A uniform number in [0, 1) (random choices such as webhook chaos), from 53 random bits. */
  next(): number;
}

/**
 * The random streams of a sandbox: one for server-wide values (partner ids) and one per partner,
 * so one partner's traffic never shifts the values another partner gets (`--seed`).
 */
export interface RandomStreams {
  readonly seeded: boolean;
  server: RandomStream;
  partner(partnerId: string): RandomStream;
  /**
   * A stream of its own for values whose number varies with timing (request ids: a client that
   * polls sends more requests), so drawing them never shifts the server's or a partner's values.
   */
  named(name: string): RandomStream;
  /** Drops what is kept in memory for a partner's stream (its position stays where it is kept). */
  forget?(partnerId: string): void;
}

/** Without a seed every partner shares the one (cryptographically random) source, as before. */
export function unseededStreams(source: Pick<RandomStream, 'ids' | 'randomBytes'>): RandomStreams {
  const stream: RandomStream = { ...source, next: () => unitFromBytes(source.randomBytes(8)) };
  return { seeded: false, server: stream, partner: () => stream, named: () => stream };
}

/** The top 53 bits of 8 bytes as a number in [0, 1). */
function unitFromBytes(bytes: Buffer): number {
  return Number(bytes.readBigUInt64BE(0) >> 11n) / 2 ** 53;
}

/** Where a seeded stream keeps how many blocks it has drawn (the store's meta, so restarts continue). */
export interface StreamCounters {
  get(name: string): number;
  set(name: string, value: number): void;
}

/** Counters in a plain record (tests; the server keeps them in its store). */
export function recordCounters(read: () => Record<string, number>): StreamCounters {
  return {
    get: (name) => read()[name] ?? 0,
    set: (name, value) => {
      read()[name] = value;
    },
  };
}

const SERVER_STREAM = 'server';

/**
 * Seeded streams: block n of stream s is HMAC-SHA256(seed, `s/n`) (counter mode), so a value
 * depends only on the seed, the stream's name and how many draws came before it in that stream.
 */
export function seededStreams(seed: string, counters: StreamCounters): RandomStreams {
  const cache = new Map<string, RandomStream>();
  const stream = (name: string): RandomStream => {
    let found = cache.get(name);
    if (!found) {
      found = seededStream(seed, name, counters);
      cache.set(name, found);
    }
    return found;
  };
  return {
    seeded: true,
    server: stream(SERVER_STREAM),
    partner: (partnerId) => stream(`partner:${partnerId}`),
    named: (name) => stream(`named:${name}`),
    forget: (partnerId) => {
      cache.delete(`partner:${partnerId}`);
    },
  };
}

function seededStream(seed: string, name: string, counters: StreamCounters): RandomStream {
  const randomBytes: RandomBytes = (size) => {
    const blocks: Buffer[] = [];
    let length = 0;
    while (length < size) {
      const n = counters.get(name) + 1;
      counters.set(name, n);
      const block = createHmac('sha256', seed).update(`${name}/${n}`).digest();
      blocks.push(block);
      length += block.length;
    }
    return Buffer.concat(blocks).subarray(0, size);
  };
  return {
    randomBytes,
    ids: (prefix) => `${prefix}${randomBytes(16).toString('hex')}`,
    next: () => unitFromBytes(randomBytes(8)),
  };
}

/** A key derived from the seed for one purpose (e.g. the access-token signing key). */
export function seededKey(seed: string, purpose: string): Buffer {
  return createHmac('sha256', seed).update(`key:${purpose}`).digest();
}
