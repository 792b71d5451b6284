import { randomBytes, randomFillSync } from 'node:crypto';

/** Makes ids: prefix + 32 lowercase hex characters. Injected so tests can make them predictable. */
export type IdSource = (prefix: string) => string;

/** Random bytes drawn 4 KiB at a time (256 ids), each byte used once. */
const POOL_BYTES = 4096;
const ID_BYTES = 16;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/**
 * prefix + 128 random bits as 32 lowercase hex characters, from the system's CSPRNG. The bytes
 * come from a pool refilled when spent and are hex-encoded in one step: one string per id, where
 * a character-by-character alphabet walk allocated one per character.
 */
export const randomIds: IdSource = (prefix) => {
  if (used + ID_BYTES > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const hex = pool.toString('hex', used, used + ID_BYTES);
  used += ID_BYTES;
  return `${prefix}${hex}`;
};

/** Deterministic ids for tests: prefix + a zero-padded counter in hex. */
export function sequentialIds(): IdSource {
  let n = 0;
  return (prefix) => {
    n += 1;
    return `${prefix}${n.toString(16).padStart(32, '0')}`;
  };
}

/** Random bytes for secrets and keys. Injected for the same reason as ids. */
export type RandomBytes = (size: number) => Buffer;

export const cryptoRandomBytes: RandomBytes = (size) => randomBytes(size);

/**
 * Cheap unique ids for a busy stream (request ids): prefix + 16 random hex characters drawn once
 * per process + a 16-hex-character counter. Unique across processes (the random half) and within
 * one (the counter); guessable, so only for ids that grant nothing.
 */
export function counterIds(): IdSource {
  const processPart = randomBytes(8).toString('hex');
  let n = 0;
  return (prefix) => {
    n += 1;
    return `${prefix}${processPart}${n.toString(16).padStart(16, '0')}`;
  };
}
