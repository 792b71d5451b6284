import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../../src/domain/default-partner.js';
import { partnerClient } from '../../support/partner-client.js';
import type { TestSandbox } from '../../support/sandbox.js';

/**
 * The test helpers' sandbox interface over real HTTP (a running instance or the test's proxy),
 * acting as one partner. Only what the helpers use is provided: `request`, `json`, `token` and
 * `app.request` (the multipart upload helper).
 */
export function httpSandbox(
  baseUrl: () => string,
  clientId = DEFAULT_CLIENT_ID,
  clientSecret = DEFAULT_CLIENT_SECRET,
): TestSandbox {
  const send = (path: string, init: RequestInit): Promise<Response> => fetch(`${baseUrl()}${path}`, init);
  const app = { request: send };
  return { app, ...partnerClient(send, clientId, clientSecret) } as unknown as TestSandbox;
}
