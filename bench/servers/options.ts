// What every bench server starts with: loopback on a free port, frozen clocks, no webhook hosts,
// the bench credential, a log that prints only errors. Each server adds or overrides its own.
export const BENCH_SERVER_OPTIONS = {
  port: 0,
  host: '127.0.0.1',
  clockMode: 'frozen',
  webhookHttpHosts: [] as string[],
  credential: { clientId: 'cid_bench', clientSecret: 'svc_cs_test_bench' },
  log: {
    info: (_message: string) => {},
    error: (message: string, error?: unknown) => console.error(message, error),
  },
} as const;
