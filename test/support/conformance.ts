import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { conformanceCommand } from '../../src/conformance/command.js';
import type { ConformanceFlags } from '../../src/conformance/options.js';
import type { Report } from '../../src/conformance/report.js';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';

export interface KitRun {
  code: number;
  report: Report;
  stderr: string;
}

/** Runs the conformance kit in this process (as `credit-sandbox conformance --json …` would). */
export async function runKit(target: string, flags: Partial<ConformanceFlags> = {}): Promise<KitRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await conformanceCommand(
    { target, clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET, json: true, ...flags },
    { out: (line) => out.push(line), err: (line) => err.push(line) },
  );
  const text = out.join('\n');
  return { code, report: (text ? JSON.parse(text) : undefined) as Report, stderr: err.join('\n') };
}

/** The ids of the report's checks with `status`. */
export function idsWith(report: Report, status: 'pass' | 'fail' | 'skip'): string[] {
  return report.checks.filter((check) => check.status === status).map((check) => check.id);
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const schema = JSON.parse(
  readFileSync(new URL('../../docs/conformance-report.schema.json', import.meta.url), 'utf8'),
);
const validate = addFormats(new Ajv2020({ allErrors: true, strict: true })).compile(schema);

/** The report follows the JSON Schema documented in docs/conformance.md. */
export function expectValidReport(report: unknown): void {
  const valid = validate(report);
  expect(validate.errors ?? [], 'the report follows docs/conformance-report.schema.json').toEqual([]);
  expect(valid).toBe(true);
}
