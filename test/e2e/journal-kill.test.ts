import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { generateCpf } from '../../src/finance/cpf.js';
import { spawnCli, waitForLine } from '../support/cli.js';

const WRITERS = 8;
const WRITE_FOR_MS = 1500;
const MIN_ACKED = 50;
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Spawns `serve --data` on a free loopback port; resolves with its URL and its restore line. */
async function serve(path: string): Promise<{ child: ChildProcess; url: string; restored: string }> {
  const child = spawnCli([
    'serve',
    ...['--port', '0', '--data', path, '--clock', 'frozen', '--rate-limit', '0'],
    ...['--journal-limit', '16kb'], // small, so compactions run while the writers write
  ]);
  children.push(child);
  const stdout = child.stdout as NodeJS.ReadableStream;
  const restored = waitForLine(stdout, (line) => line.startsWith('storage: restored'));
  const listening = await waitForLine(stdout, (line) => line.includes('listening on'));
  return {
    child,
    url: (listening.match(/http:\/\/127\.0\.0\.1:\d+/) as RegExpMatchArray)[0],
    restored: await restored,
  };
}

async function token(url: string): Promise<string> {
  const basic = Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64');
  const res = await fetch(`${url}/v3/auth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * Concurrent writers creating customers until `stop`; returns the ids of every creation the
 * server acknowledged (a complete 201). Requests cut off by the kill count as not acknowledged.
 */
function write(url: string, bearer: string, firstCpf: number) {
  const acked: string[] = [];
  let next = firstCpf;
  let stopped = false;
  const loops = Array.from({ length: WRITERS }, async () => {
    while (!stopped) {
      const cpf = generateCpf(String(next++));
      try {
        const res = await fetch(`${url}/v3/customers`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify({ cpf, name: `Writer ${cpf}` }),
        });
        const body = (await res.json()) as { id?: string };
        if (res.status === 201 && body.id) acked.push(body.id);
        else if (!stopped) throw new Error(`unexpected ${res.status}: ${JSON.stringify(body)}`);
      } catch (error) {
        if (!stopped) throw error;
      }
    }
  });
  return { acked, stop: () => (stopped = true), done: Promise.all(loops) };
}

describe('kill -9 with --data', () => {
  it('keeps every acknowledged write across two kill -9s during concurrent writes and compactions', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'credit-sandbox-kill-')), 'data.json');
    const acked: string[] = [];
    for (const round of [0, 1]) {
      const { child, url } = await serve(path);
      const writers = write(url, await token(url), 100_000_000 + round * 1_000_000);
      // Real traffic against a real process: at least WRITE_FOR_MS and MIN_ACKED acknowledged writes
      // (a busy machine takes longer to reach them; the test's limit catches a server that hangs).
      const started = Date.now();
      while (Date.now() - started < WRITE_FOR_MS || writers.acked.length < MIN_ACKED) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL'); // mid-flight: requests in progress are cut off
      writers.stop();
      await writers.done;
      await exited;
      expect(writers.acked.length).toBeGreaterThanOrEqual(MIN_ACKED);
      acked.push(...writers.acked);
    }

    const { url, restored } = await serve(path);
    expect(restored).toMatch(/^storage: restored [\d,]+ rows and [\d,]+ journal entries from .* in \d+ ms$/);
    expect(existsSync(path)).toBe(true); // a compaction wrote the snapshot
    const bearer = await token(url);
    const missing: string[] = [];
    for (let i = 0; i < acked.length; i += WRITERS) {
      await Promise.all(
        acked.slice(i, i + WRITERS).map(async (id) => {
          const res = await fetch(`${url}/v3/customers/${id}`, {
            headers: { authorization: `Bearer ${bearer}` },
          });
          await res.arrayBuffer();
          if (res.status !== 200) missing.push(id);
        }),
      );
    }
    expect(missing).toEqual([]);
  });
});
