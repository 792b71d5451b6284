import { type Difference, describeDifference } from '../drift/structural-diff.js';

/** What `replay` found (docs/proxy.md): one entry per recording line it acted on. */
export interface ReplayReport {
  format: 'credit-sandbox-replay';
  version: 1;
  recording: string;
  target: string;
  /** The partner the replay ran as (its client id). */
  client_id: string;
  started_at: string;
  finished_at: string;
  summary: { exchanges: number; replayed: number; skipped: number; differences: number; moves: number };
  entries: ReplayEntry[];
}

export interface ReplayEntry {
  /** 1-based position of the line in the recording. */
  line: number;
  kind: 'exchange' | 'webhook';
  operation: string | null;
  /** What the recording holds: `POST /v3/customers` or `webhook customer.active`. */
  recorded: string;
  /** What the replay sent, ids mapped (`GET /v3/customers/cust_…`); absent for webhooks and skips. */
  sent?: string;
  recorded_status?: number;
  status?: number;
  differences: Difference[];
  /** Moves made so the target follows the recording (control calls, clock). */
  moves: string[];
  skipped?: string;
}

/** The report as text: a line per difference, per move and per skip, then a summary. */
export function describeReport(report: ReplayReport, verbose = false): string[] {
  const lines: string[] = [];
  for (const entry of report.entries) {
    const at = `line ${entry.line} ${entry.recorded}`;
    if (entry.skipped) {
      if (verbose) lines.push(`- ${at}: skipped (${entry.skipped})`);
      continue;
    }
    for (const move of entry.moves) lines.push(`→ ${at}: ${move}`);
    for (const difference of entry.differences) lines.push(`✗ ${at}: ${describeDifference(difference)}`);
    if (verbose && entry.differences.length === 0 && entry.kind === 'exchange')
      lines.push(`✓ ${at} → ${entry.status}`);
  }
  const { summary } = report;
  lines.push(
    `${summary.replayed} of ${summary.exchanges} exchanges replayed against ${report.target} (${summary.skipped} skipped), ` +
      `${summary.moves} move${summary.moves === 1 ? '' : 's'} made outside the recorded requests, ` +
      `${summary.differences} difference${summary.differences === 1 ? '' : 's'}`,
  );
  return lines;
}
