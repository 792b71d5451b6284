// `credit-sandbox conformance`: runs the checks against a target (and a second one with
// `--compare`), prints one line per check, writes the report and JUnit XML, and answers the exit
// status: 0 every check that could run passed, 1 at least one departure (or difference), 2 the
// kit could not run.
import { writeFile } from 'node:fs/promises';
import { ALL_CHECKS } from './checks/index.js';
import { compareRuns } from './compare.js';
import { junitXml } from './junit.js';
import {
  type ConformanceFlags,
  credential,
  listenOption,
  parseDuration,
  parseTarget,
  patterns,
  publicUrlOption,
  UsageProblem,
} from './options.js';
import { buildReport, type CompareSection, resultLine } from './report.js';
import { CannotRun, probeMode, type RunOptions, runChecks, selectChecks } from './runner.js';
import type { Check } from './types.js';

export const EXIT = { ok: 0, departures: 1, cannotRun: 2 } as const;

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

export async function conformanceCommand(
  flags: ConformanceFlags,
  io: Io = processIo,
  checks: readonly Check[] = ALL_CHECKS,
): Promise<number> {
  try {
    return await run(flags, io, checks);
  } catch (error) {
    if (error instanceof UsageProblem || error instanceof CannotRun) {
      io.err(`conformance: ${error.message}`);
      io.err('conformance: exit 2 — the kit could not run; nothing was judged');
      return EXIT.cannotRun;
    }
    throw error;
  }
}

async function run(flags: ConformanceFlags, io: Io, checks: readonly Check[]): Promise<number> {
  const selected = selectChecks(checks, patterns(flags.only), patterns(flags.skip));
  if (flags.list) {
    for (const check of selected) io.out(`${check.id}\t${check.needs}\t${check.title}`);
    return EXIT.ok;
  }
  if (selected.length === 0)
    throw new UsageProblem('--only / --skip leave no check to run (see --list for the ids)');
  const target = parseTarget(flags.target, '--target');
  const main = credential(flags.clientId, flags.clientSecret, ['--client-id', '--client-secret']);
  const common: Omit<RunOptions, 'target' | 'clientId' | 'clientSecret'> = {
    timeoutMs: flags.timeout ? parseDuration(flags.timeout, '--timeout') : 30_000,
    deliveryWaitMs: flags.deliveryWait ? parseDuration(flags.deliveryWait, '--delivery-wait') : undefined,
    only: patterns(flags.only),
    skip: patterns(flags.skip),
    webhookListen: listenOption(flags.webhookListen),
    webhookPublicUrl: publicUrlOption(flags.webhookPublicUrl),
    seed: flags.seed,
  };
  const compareTarget = flags.compare === undefined ? undefined : parseTarget(flags.compare, '--compare');
  const second = compareTarget
    ? credential(flags.compareClientId ?? main.clientId, flags.compareClientSecret ?? main.clientSecret, [
        '--compare-client-id',
        '--compare-client-secret',
      ])
    : undefined;
  const started = Date.now();
  const print = flags.json ? undefined : (line: string) => io.out(line);
  let compare: CompareSection | undefined;
  let outcome: Awaited<ReturnType<typeof runChecks>>;
  if (compareTarget && second) {
    // Both runs send the same requests: the same seed, one check at a time, in the lesser mode.
    const seed = flags.seed ?? `compare-${started.toString(36)}`;
    const options = { ...common, seed, concurrency: 1 };
    const modes = await Promise.all([
      probeMode({ target, ...main }),
      probeMode({ target: compareTarget, ...second }),
    ]);
    const blackBox = modes.includes('black-box');
    outcome = await runChecks(selected, {
      ...options,
      target,
      ...main,
      blackBox,
      onResult: (r) => print?.(resultLine(r)),
    });
    const other = await runChecks(selected, { ...options, target: compareTarget, ...second, blackBox });
    compare = compareRuns(outcome, other);
    if (print) {
      print(
        `compare: ${compare.differences.length} structural difference(s) between ${target} and ${compareTarget}`,
      );
      for (const d of compare.differences) {
        print(
          `DIFF  ${d.request}  ${d.at}: ${d.kind} ${d.expected} → ${d.actual}  (first in ${d.check}; ${d.count}×)`,
        );
      }
    }
  } else {
    outcome = await runChecks(selected, {
      ...common,
      target,
      ...main,
      onResult: (r) => print?.(resultLine(r)),
    });
  }
  const report = buildReport(outcome, compare);
  if (flags.report) await writeFile(flags.report, `${JSON.stringify(report, null, 2)}\n`);
  if (flags.junit) await writeFile(flags.junit, junitXml(report));
  if (flags.json) io.out(JSON.stringify(report, null, 2));
  const { pass, fail, skip } = report.summary;
  const differences = compare?.differences.length ?? 0;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  io.err(
    `conformance: ${pass} passed, ${fail} failed, ${skip} skipped in ${seconds} s against ${target} (${report.mode} mode, ${outcome.recorder.requests} requests)`,
  );
  if (fail > 0 || differences > 0) {
    const why = [
      fail > 0 ? `${fail} departure(s) from the spec` : '',
      differences > 0 ? `${differences} difference(s) from ${compareTarget}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    io.err(`conformance: exit 1 — ${why}`);
    return EXIT.departures;
  }
  io.err('conformance: exit 0 — every check that could run passed');
  return EXIT.ok;
}
