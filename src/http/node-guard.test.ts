import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { guardListener } from './node-guard.js';

async function serve(listener: RequestListener, logged: string[]): Promise<string> {
  const guarded = guardListener(
    listener,
    { info: () => {}, error: (message) => logged.push(message) },
    () => 'http://sandbox.test',
  );
  const server = createServer(guarded);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('guardListener', () => {
  it('answers a 500 problem for what the handler throws or rejects with, logged, and serves the next request', async () => {
    const logged: string[] = [];
    let calls = 0;
    const url = await serve((_req, res) => {
      calls++;
      if (calls === 1) throw new TypeError('a bad row');
      if (calls === 2) return Promise.reject(new RangeError('Invalid time value')) as never;
      res.end('fine');
    }, logged);
    for (const _ of [1, 2]) {
      const res = await fetch(url);
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(await res.json()).toMatchObject({
        code: 'internal_error',
        status: 500,
        type: 'http://sandbox.test/problems/internal_error',
      });
    }
    expect(await (await fetch(url)).text()).toBe('fine');
    expect(logged).toEqual(['a request failed outside the app', 'a request failed outside the app']);
  });

  it('closes the connection when the answer had begun', async () => {
    const logged: string[] = [];
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '10' });
      res.write('half');
      throw new Error('after the head');
    }, logged);
    await expect(fetch(url).then((res) => res.text())).rejects.toThrow();
    expect(logged).toHaveLength(1);
  });
});
