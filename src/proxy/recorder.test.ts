import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Recorder } from './recorder.js';
import {
  type ExchangeLine,
  parseRecording,
  RECORDING_FORMAT,
  RecordingFormatError,
} from './recording-format.js';

function line(n: number, padding = 0): ExchangeLine {
  return {
    format: RECORDING_FORMAT,
    version: 1,
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    operation: 'getCustomer',
    request: { method: 'GET', path: `/v3/customers/cust_${n}`, headers: {}, body: null, body_bytes: 0 },
    response: { status: 200, headers: {}, body: { pad: 'x'.repeat(padding) }, body_bytes: padding },
    ms: 1,
    departures: [],
  };
}

describe('the recorder', () => {
  it('rotates before a file would pass max bytes, keeps `files` files, and every line stays whole', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'recorder-')), 'rec.ndjson');
    const recorder = new Recorder({ file, maxBytes: 2_000, files: 3 });
    for (let n = 0; n < 40; n++) recorder.write(line(n, 100));
    await recorder.close();
    expect(existsSync(`${file}.1`) && existsSync(`${file}.2`)).toBe(true);
    expect(existsSync(`${file}.3`)).toBe(false);
    for (const name of [file, `${file}.1`, `${file}.2`])
      expect(statSync(name).size).toBeLessThanOrEqual(2_000);
    // The newest lines are in the current file, the older ones in .1 then .2, none cut.
    const lines = [`${file}.2`, `${file}.1`, file].flatMap((name) =>
      parseRecording(readFileSync(name, 'utf8'), name),
    );
    const numbers = lines.map((l) => ('request' in l ? Number(l.request.path.split('_')[1]) : -1));
    expect(numbers.at(-1)).toBe(39);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(recorder.rotations).toBeGreaterThan(3);
  });

  it('appends to an existing file and drops (and counts) lines when the disk falls behind', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'recorder-')), 'rec.ndjson');
    const first = new Recorder({ file });
    first.write(line(1));
    await first.close();
    const second = new Recorder({ file, maxPendingBytes: 1_000 });
    for (let n = 0; n < 50; n++) second.write(line(n, 200));
    await second.close();
    expect(second.dropped).toBeGreaterThan(0);
    expect(parseRecording(readFileSync(file, 'utf8'))).toHaveLength(1 + second.written);
  });
});

describe('the recording format', () => {
  it('refuses lines of another format or version, and says which line', () => {
    const good = JSON.stringify(line(1));
    expect(() => parseRecording(`${good}\n{"format":"x"}`, 'r.ndjson')).toThrow(
      new RecordingFormatError('r.ndjson:2: not a credit-sandbox recording line (format "x")'),
    );
    expect(() => parseRecording(JSON.stringify({ ...line(1), version: 2 }), 'r')).toThrow(
      'r:1: recording version 2; this credit-sandbox reads version 1',
    );
    expect(() => parseRecording('{', 'r')).toThrow('r:1: not JSON');
    expect(() => parseRecording(JSON.stringify({ ...line(1), request: { method: 'GET' } }), 'r')).toThrow(
      /^r:1: /,
    );
    expect(parseRecording(`\n${good}\n\n`)).toHaveLength(1);
  });
});
