// Runs the core benchmarks in turn (each bounded in time, loopback only) and writes their output
// to bench/LATEST-RUN.md. bench/RESULTS.md is the curated record (every benchmark, with the machine's
// load and how to read each figure): a run copies what it confirms there by hand, so a partial run
// on another machine never wipes it.
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';

interface BenchResult {
  name: string;
  markdown: string;
  ok?: boolean;
}

const BENCHES: { file: string; load: () => Promise<{ run: () => Promise<BenchResult> }> }[] = [
  { file: 'http-get.ts', load: () => import('./http-get.js') },
  { file: 'inspector-overhead.ts', load: () => import('./inspector-overhead.js') },
  { file: 'advance-scaling.ts', load: () => import('./advance-scaling.js') },
  { file: 'webhook-throughput.ts', load: () => import('./webhook-throughput.js') },
  { file: 'data-journal.ts', load: () => import('./data-journal.js') },
  { file: 'dashboard.ts', load: () => import('./dashboard.js') },
];

const sections: string[] = [];
let failed = false;
for (const bench of BENCHES) {
  console.error(`running ${bench.file} …`);
  const result = await (await bench.load()).run();
  if (result.ok === false) failed = true;
  const section = `## ${result.name}\n\n${result.markdown}\n`;
  console.log(section);
  sections.push(section);
}

const header = [
  '# Benchmark results',
  '',
  `Recorded by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}.`,
  'Every comparison runs both sides in the same run on the same machine; ratios matter, absolute numbers vary by machine.',
  '',
].join('\n');
writeFileSync(new URL('./LATEST-RUN.md', import.meta.url), `${header}\n${sections.join('\n')}`);
if (failed) {
  console.error('a benchmark missed its target');
  process.exitCode = 1;
}
