// The webhook drain benchmark's receiver: reads the body, answers 204, and remembers when the
// latest delivery arrived (process.hrtime: CLOCK_MONOTONIC, comparable with the bench process on
// the same machine). Asked over IPC, it reports how many arrived, the last arrival and its CPU.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let received = 0;
let lastNs = 0n;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received++;
    lastNs = process.hrtime.bigint();
    res.writeHead(204);
    res.end();
  });
});
server.keepAliveTimeout = 10_000;
process.on('message', (message) => {
  if (message === 'reset') {
    received = 0;
    lastNs = 0n;
  }
  const cpu = process.cpuUsage();
  process.send?.({ received, lastNs: String(lastNs), cpu });
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
