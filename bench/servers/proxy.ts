// The validating proxy as `credit-sandbox proxy` runs it, from the compiled build in dist/ (bench/
// support.ts builds it first): the contract fetched from the upstream (or OPENAPI, a file), every
// exchange validated, recorded to RECORD when set. Env UPSTREAM (base URL ending in /v3). Prints its
// port. Answers 'cpu' on its IPC channel with its process.cpuUsage() and 'mem' with its memory use.
import { answerCpuRequests } from './answer-cpu.js';

// dist/ exists only after `npm run build`; the bench builds it before starting this.
const dist = '../../dist/proxy/';
const { loadContract } = (await import(
  `${dist}contract-load.js`
)) as typeof import('../../src/proxy/contract-load.js');
const { startProxy } = (await import(
  `${dist}proxy-server.js`
)) as typeof import('../../src/proxy/proxy-server.js');

const upstream = process.env.UPSTREAM ?? '';
const proxy = await startProxy({
  upstream,
  contract: await loadContract(process.env.OPENAPI || `${upstream}/openapi.json`),
  record: process.env.RECORD ? { file: process.env.RECORD } : undefined,
});
process.send?.({ port: Number(new URL(proxy.baseUrl).port) });
answerCpuRequests();
process.on('message', (message) => {
  if (message === 'mem')
    process.send?.({ rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed });
});
process.once('SIGINT', () => process.exit(0));
