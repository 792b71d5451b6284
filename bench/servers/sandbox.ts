// The sandbox as the Docker image runs it: the compiled build in dist/ (bench/support.ts builds it
// first), in memory, with the rate limiter on but out of reach. Prints its port. The request
// inspector keeps `--request-log-size` (env REQUEST_LOG_SIZE; default 1000, 0 = inspector off);
// the access log is `--log`'s default, `pretty` (env ACCESS_LOG: pretty | json | off), written
// to this process's stdout, which the benchmark points at /dev/null.
// `/metrics` and its recording are on, as `serve` has them (env METRICS=off turns them off).
// Answers 'cpu' on its IPC channel with its process.cpuUsage().
import { answerCpuRequests } from './answer-cpu.js';
import { BENCH_SERVER_OPTIONS } from './options.js';

// @ts-expect-error -- dist/ exists only after `npm run build`; the bench builds it before starting this.
const { startServer } = (await import('../../dist/server.js')) as typeof import('../../src/server.js');

const requestLogSize = process.env.REQUEST_LOG_SIZE ? Number(process.env.REQUEST_LOG_SIZE) : undefined;
const accessLog = (process.env.ACCESS_LOG ?? 'pretty') as 'pretty' | 'json' | 'off';
const server = await startServer({
  ...BENCH_SERVER_OPTIONS,
  rateLimit: 1_000_000_000,
  requestLogSize,
  accessLog,
  metrics: process.env.METRICS !== 'off',
});
process.send?.({ port: Number(new URL(server.url).port) });
answerCpuRequests();
