import { crc32 } from 'node:zlib';
import type { TableChanges } from '../change-set.js';
import type { StoreMeta } from '../store.js';

/** One flushed change set as the journal stores it: `n` counts entries, 1, 2, 3, … without gaps. */
export interface JournalEntry {
  n: number;
  meta: StoreMeta;
  tables: Record<string, TableChanges>;
  /** Partners removed for good by this change (see ChangeSet). */
  purged?: string[];
}

/** Where each intact entry starts, and where the intact prefix of the bytes ends. */
export interface ScannedEntry {
  entry: JournalEntry;
  offset: number;
  end: number;
}

export interface ScanResult {
  entries: ScannedEntry[];
  /** Bytes from the start that hold complete, verified entries. */
  validBytes: number;
  /** Why scanning stopped before the end of the bytes, or null when everything was intact. */
  problem: string | null;
}

const SPACE = 0x20;
const NEWLINE = 0x0a;
const MAX_LENGTH_DIGITS = 12;

/**
 * Encodes an entry as one line: `<byte length of the JSON> <crc32 of the JSON, 8 hex> <JSON>\n`.
 * The length says where the JSON must end, so a line cut short is told apart from a complete one;
 * the checksum catches bytes that were never written or written wrong.
 */
export function encodeEntry(entry: JournalEntry): Buffer {
  const json = Buffer.from(JSON.stringify(entry), 'utf8');
  const header = Buffer.from(`${json.length} ${checksum(json)} `, 'latin1');
  return Buffer.concat([header, json, Buffer.from([NEWLINE])]);
}

/**
 * Reads entries from the start of a journal's bytes and stops at the first line that is not a
 * complete, verified entry: nothing after a damaged line is trusted, since every entry builds on
 * the ones before it.
 */
export function scanEntries(bytes: Buffer): ScanResult {
  const entries: ScannedEntry[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const decoded = decodeAt(bytes, offset);
    if (typeof decoded === 'string') {
      return { entries, validBytes: offset, problem: `${decoded} at byte ${offset}` };
    }
    entries.push({ entry: decoded.entry, offset, end: decoded.end });
    offset = decoded.end;
  }
  return { entries, validBytes: offset, problem: null };
}

function decodeAt(bytes: Buffer, start: number): { entry: JournalEntry; end: number } | string {
  const lengthEnd = bytes.indexOf(SPACE, start);
  if (lengthEnd < 0 || lengthEnd - start > MAX_LENGTH_DIGITS) return 'incomplete line header';
  const lengthText = bytes.toString('latin1', start, lengthEnd);
  if (!/^[1-9][0-9]*$/.test(lengthText)) return 'line header without a length';
  const length = Number(lengthText);
  const crcStart = lengthEnd + 1;
  const jsonStart = crcStart + 9;
  if (jsonStart > bytes.length) return 'incomplete line header';
  const crcText = bytes.toString('latin1', crcStart, crcStart + 8);
  if (!/^[0-9a-f]{8}$/.test(crcText) || bytes[crcStart + 8] !== SPACE)
    return 'line header without a checksum';
  const jsonEnd = jsonStart + length;
  if (jsonEnd + 1 > bytes.length)
    return `line cut short (${bytes.length - jsonStart} of ${length + 1} bytes)`;
  if (bytes[jsonEnd] !== NEWLINE) return 'line longer than its stated length';
  const json = bytes.subarray(jsonStart, jsonEnd);
  if (checksum(json) !== crcText) return 'checksum mismatch';
  let value: unknown;
  try {
    value = JSON.parse(json.toString('utf8'));
  } catch {
    return 'checksummed line that is not JSON';
  }
  if (!isEntry(value)) return 'checksummed line that is not a change set';
  return { entry: value, end: jsonEnd + 1 };
}

function checksum(bytes: Buffer): string {
  return crc32(bytes).toString(16).padStart(8, '0');
}

function isEntry(value: unknown): value is JournalEntry {
  if (typeof value !== 'object' || value === null) return false;
  const { n, meta, tables, purged } = value as Record<string, unknown>;
  if (purged !== undefined && !(Array.isArray(purged) && purged.every((id) => typeof id === 'string')))
    return false;
  if (!Number.isInteger(n) || (n as number) < 1) return false;
  if (typeof meta !== 'object' || meta === null) return false;
  const { seq, signing_key } = meta as Record<string, unknown>;
  if (typeof seq !== 'number' || typeof signing_key !== 'string') return false;
  if (typeof tables !== 'object' || tables === null) return false;
  for (const changes of Object.values(tables)) {
    const { upserts, deletes } = (changes ?? {}) as Record<string, unknown>;
    if (!Array.isArray(upserts) || !Array.isArray(deletes)) return false;
  }
  return true;
}
