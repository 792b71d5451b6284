import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultToken, exitOf, runCli, spawnCli, waitForLine } from '../support/cli.js';
import { WAIT_LIMIT_MS } from '../support/time-limits.js';

const started: ReturnType<typeof spawnCli>[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** `serve` on a free loopback port; resolves once it printed its credential (handlers are set). */
async function serve(args: string[]) {
  const child = spawnCli(['serve', '--port', '0', '--clock', 'frozen', ...args]);
  started.push(child);
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  // The credential is printed last, after the signal handlers are in place.
  await waitForLine(child.stdout as NodeJS.ReadableStream, (l) => l.includes('client_secret'));
  const url = /credit-sandbox listening on (\S+)/.exec(stdout)?.[1] ?? '';
  return { child, url, output: () => stdout };
}

/**
 * The first line of the server's output so far, or to come, that satisfies `match`: the access
 * log writes at the end of the server's event-loop turn, so the line may already be in before
 * the client's fetch resolves.
 */
function lineOf(server: Awaited<ReturnType<typeof serve>>, match: (line: string) => boolean) {
  const seen = server.output().split('\n').find(match);
  return seen !== undefined
    ? Promise.resolve(seen)
    : waitForLine(server.child.stdout as NodeJS.ReadableStream, match);
}

const token = defaultToken;

describe('credit-sandbox serve: start-up, access log, shutdown', () => {
  it('a taken port is named with how to pick another, exit 1, no stack trace', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const res = await runCli(['serve', '--port', String(port)]);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(res.stderr).toContain('--port <n>');
      expect(res.stderr).not.toMatch(/\n\s+at /);
    } finally {
      taken.close();
    }
  });

  it('SIGTERM stops within 2 s, flushes an acknowledged write to --data and says it stopped', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'serve-stop-')), 'sandbox.json');
    const { child, url, output } = await serve(['--data', data, '--log', 'off']);
    const bearer = await token(url);
    const res = await fetch(`${url}/v3/sandbox/partners`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'written-before-sigterm' }),
    });
    expect(res.status).toBe(201);
    // The 2 s is the server's own deadline (src/cli/serve-signals.ts, tested with fake timers
    // there): a stop that overran it would exit 1, so exit 0 says it stopped within 2 s.
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
    expect(output()).not.toContain('did not stop within');
    expect(output()).toContain('SIGTERM received, stopping');
    expect(output()).toContain('credit-sandbox stopped');
    // Whatever the storage format: a new server on the same --data has the write.
    const again = await serve(['--data', data, '--log', 'off']);
    const listed = await fetch(`${again.url}/v3/sandbox/partners`, {
      headers: { authorization: `Bearer ${await token(again.url)}` },
    });
    const names = ((await listed.json()) as { data: { name: string }[] }).data.map((p) => p.name);
    expect(names).toContain('written-before-sigterm');
    again.child.kill('SIGTERM');
  });

  it('SIGINT stops it too, even with a keep-alive connection open', async () => {
    const { child, url, output } = await serve(['--log', 'off']);
    // fetch keeps its connection alive: shutdown must not wait for it.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    // Waiting for that connection would overrun the 2 s deadline: exit 1 (see the test above).
    child.kill('SIGINT');
    expect(await exitOf(child)).toBe(0);
    expect(output()).not.toContain('did not stop within');
    expect(output()).toContain('SIGINT received, stopping');
  });

  it('logs one line per request, pretty by default and as JSON with --log json', async () => {
    const pretty = await serve([]);
    await fetch(`${pretty.url}/v3/sandbox/clock`);
    const line = await lineOf(pretty, (l) => l.includes('/v3/sandbox/clock'));
    expect(line).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z {2}GET {4}\/v3\/sandbox\/clock {2}401 {2}[\d.]+ ms$/);
    pretty.child.kill('SIGTERM');

    const json = await serve(['--log', 'json']);
    await fetch(`${json.url}/nowhere`, { method: 'POST' });
    const entry = await lineOf(json, (l) => l.includes('/nowhere'));
    expect(JSON.parse(entry)).toEqual({
      time: expect.stringMatching(/Z$/),
      method: 'POST',
      path: '/nowhere',
      status: 404,
      duration_ms: expect.any(Number),
    });
    json.child.kill('SIGTERM');

    const bad = await runCli(['serve', '--log', 'loud']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--log must be pretty, json, off, got "loud"');
  });
});

describe('npm start (the quick start) in the background', () => {
  it('stops the server when npm itself gets SIGTERM (no orphan left listening)', async () => {
    const { spawn } = await import('node:child_process');
    const npm = spawn('npm', ['start', '--silent', '--', '--port', '0', '--log', 'off'], {
      cwd: new URL('../../', import.meta.url),
      env: { ...process.env, PORT: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(npm);
    let stdout = '';
    npm.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    await waitForLine(npm.stdout as NodeJS.ReadableStream, (l) => l.includes('client_secret'));
    const url = /credit-sandbox listening on (\S+)/.exec(stdout)?.[1] ?? '';
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    npm.kill('SIGTERM');
    await exitOf(npm);
    // The server notices npm is gone and stops as if signalled (its own 2 s deadline applies).
    await expect.poll(() => stdout, { timeout: WAIT_LIMIT_MS }).toContain('credit-sandbox stopped');
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});
