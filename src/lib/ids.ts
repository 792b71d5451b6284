import { randomBytes } from 'node:crypto';
import { customAlphabet } from 'nanoid';

/** Makes ids: prefix + 32 lowercase hex characters. Injected so tests can make them predictable. */
export type IdSource = (prefix: string) => string;

const hex32 = customAlphabet('0123456789abcdef', 32);

export const randomIds: IdSource = (prefix) => `${prefix}${hex32()}`;

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
