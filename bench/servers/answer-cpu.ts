// Lets the benchmark ask a bench server for the CPU time it has used (all threads, user and system),
// over the IPC channel `fork` opened: bench/support.ts childCpuMicros sends 'cpu' between loads.
export function answerCpuRequests(): void {
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  });
}
