import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { type RunningServer, startServer } from '../../src/server.js';

/** Debian's Chromium (`apt-get install chromium`); playwright-core never downloads a browser. */
const CHROMIUM = '/usr/bin/chromium';
// Without the background-networking flags Chromium keeps dialing out, which this machine refuses.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A real sandbox on 127.0.0.1 (frozen clock) and headless Chromium with JavaScript off. */
export interface BrowserHarness {
  server: RunningServer;
  browser: BrowserContext;
  api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Sends a request with the default partner's token and returns the raw response. */
  fetch(path: string, init: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** What a test file may change about the server it gets. */
export interface HarnessOptions {
  /** Directories of extra scenario files (`--scenarios`). */
  scenarioDirs?: string[];
}

/** A separate headless Chromium, for pages that need JavaScript (live updates). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export async function startBrowserHarness(options: HarnessOptions = {}): Promise<BrowserHarness> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's Chromium with "apt-get install -y chromium".`);
  }
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    clockMode: 'frozen',
    rateLimit: 0,
    webhookHttpHosts: [],
    credential: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
    scenarioDirs: options.scenarioDirs,
    log: { info: () => {}, error: (message, error) => console.error(message, error) },
  });
  // A fresh token whenever the partner clock has moved past the last one's hour (tests jump 35 days).
  const newToken = async () => {
    const res = await fetch(`${server.url}/v3/auth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64')}`,
      },
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };
  let token = await newToken();
  const userDataDir = mkdtempSync(join(tmpdir(), 'credit-sandbox-chromium-'));
  const browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    javaScriptEnabled: false, // the hosted pages must work without any script
  });

  const authorized = async (path: string, init: RequestInit): Promise<Response> => {
    const send = () =>
      fetch(`${server.url}${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${token}`,
          ...(init.headers as Record<string, string> | undefined),
        },
      });
    const res = await send();
    if (res.status !== 401 || !(await res.clone().text()).includes('token_expired')) return res;
    token = await newToken();
    return send();
  };

  return {
    server,
    browser,
    fetch: authorized,
    async api<T>(method: string, path: string, body?: unknown) {
      const res = await authorized(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as T };
    },
    async close() {
      await browser.close();
      await server.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
