import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/proxy/contract-load.js';
import { type RunningProxy, startProxy } from '../../src/proxy/proxy-server.js';
import { parseRecording, RecordingFormatError } from '../../src/proxy/recording-format.js';
import { scenarioFromRecording } from '../../src/proxy/scenario-from-recording.js';
import type { RunningServer } from '../../src/server.js';
import { defaultToken } from '../support/cli.js';
import { startAppReceiver } from '../support/proxy-session.js';
import { startQuietServer } from '../support/test-server.js';

/** Hostile request bodies: each goes through the proxy exactly as it would reach the sandbox directly. */
const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
const BODIES: Array<[string, Buffer, string]> = [
  ['a NUL inside a string', Buffer.from('{"cpf":"529\\u0000982","name":"a\\u0000b"}'), 'application/json'],
  [
    'invalid UTF-8',
    Buffer.from([0x7b, 0x22, 0x63, 0x70, 0x66, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    'application/json',
  ],
  ['100,000 levels of nesting', Buffer.from(DEEP), 'application/json'],
  [
    'a 3 MiB string (over the validation limit)',
    Buffer.from(JSON.stringify({ cpf: 'x'.repeat(3 * 1024 * 1024) })),
    'application/json',
  ],
  [
    'a wrong charset',
    Buffer.from('{"cpf":"52998224725","name":"Jo\xe3o"}', 'latin1'),
    'application/json; charset=iso-8859-1',
  ],
  ['out-of-range numbers', Buffer.from('{"cpf":1e400,"name":-0}'), 'application/json'],
  ['not JSON at all', Buffer.from('%PDF-1.4 \x00\x01'), 'application/json'],
];

describe('the proxy, relay and recording readers with hostile input', () => {
  let server: RunningServer;
  let proxy: RunningProxy;
  let token: string;
  const file = join(mkdtempSync(join(tmpdir(), 'proxy-bad-')), 'rec.ndjson');
  let receiver: Awaited<ReturnType<typeof startAppReceiver>>;
  beforeAll(async () => {
    server = await startQuietServer();
    receiver = await startAppReceiver();
    proxy = await startProxy({
      upstream: `${server.url}/v3`,
      contract: await loadContract(`${server.url}/v3/openapi.json`),
      record: { file },
      webhookRelay: receiver.url,
    });
    token = await defaultToken(server.url);
  });
  afterAll(async () => {
    await proxy.close();
    await receiver.close();
    await server.close();
  });

  const post = async (base: string, body: Buffer, type: string) => {
    const answer = await request(`${base}/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type },
      body,
    });
    return { status: answer.statusCode, body: await answer.body.text() };
  };

  for (const [what, body, type] of BODIES) {
    it(`${what}: the sandbox's own answer comes back through the proxy`, async () => {
      const direct = await post(`${server.url}/v3`, body, type);
      const proxied = await post(proxy.baseUrl, body, type);
      expect(proxied.status).toBe(direct.status);
      expect(proxied.body.replace(/req_\w+/g, 'req')).toBe(direct.body.replace(/req_\w+/g, 'req'));
    });
  }

  it('hostile deliveries reach the app, each departure recorded, and the recording stays readable', async () => {
    for (const body of ['{', DEEP, '{"type":"loan.active","data":"\u0000"}', '']) {
      const answer = await request(proxy.relayUrl!, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.statusCode).toBe(200);
      await answer.body.text();
    }
    await proxy.close();
    const lines = parseRecording(readFileSync(file, 'utf8'));
    const webhooks = lines.filter((line) => 'webhook' in line);
    expect(webhooks).toHaveLength(4);
    for (const line of webhooks) expect(line.departures.map((d) => d.where)).toContain('webhook signature');
    // A proxy that has seen all this still forwards.
    expect(lines.filter((line) => 'request' in line).length).toBe(BODIES.length);
    // The readers take what the proxy wrote (a body deeper than 64 levels is noted, not recorded).
    expect(scenarioFromRecording(lines, { name: 'hostile', source: file }).steps).toBeGreaterThan(0);
  });

  it('refuses hostile recording files by line, never crashing the reader', () => {
    const good = readFileSync(file, 'utf8').split('\n')[0]!;
    const cases: Array<[string, RegExp]> = [
      [`${good}\n\u0000`, /:2: not JSON/],
      [`${good.slice(0, 40)}\uFFFD${good.slice(41)}`, /:1: /],
      [`{"format":"credit-sandbox-recording","version":1,"x":${DEEP}}`, /:1: nests deeper than 80 levels/],
      ['{"format":"credit-sandbox-recording","version":1e400}', /:1: recording version null/],
      [`${good.replace('"version":1', '"version":2')}`, /:1: recording version 2/],
      [
        JSON.stringify({ format: 'credit-sandbox-recording', version: 1, at: 'x'.repeat(10_000_000) }),
        /:1: /,
      ],
    ];
    for (const [text, message] of cases) {
      expect(() => parseRecording(text, 'r')).toThrow(RecordingFormatError);
      expect(() => parseRecording(text, 'r')).toThrow(message);
    }
  });
});
