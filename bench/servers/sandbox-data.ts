// The sandbox as the Docker image runs it (dist/), with `--data $DATA_FILE` when that is set
// (in memory otherwise). Sends its port and its storage restore line to the parent.
// @ts-expect-error -- dist/ exists only after `npm run build`; the bench builds it before starting this.
const { startServer } = (await import('../../dist/server.js')) as typeof import('../../src/server.js');

let restored = '';
const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  clockMode: 'frozen',
  webhookHttpHosts: [],
  rateLimit: 0,
  dataFile: process.env.DATA_FILE || undefined,
  credential: { clientId: 'cid_bench', clientSecret: 'svc_cs_test_bench' },
  log: {
    info: (message) => {
      if (message.startsWith('storage: restored')) restored = message;
    },
    error: (m, e) => console.error(m, e),
  },
});
process.send?.({ port: Number(new URL(server.url).port), restored });
