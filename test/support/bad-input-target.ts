import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import type { BadInputTarget, Send } from './bad-input.js';
import { partnerClient } from './partner-client.js';
import { basic } from './sandbox.js';

/**
 * The bad-input suite's target over a real server: the default partner sends the bad input, a
 * partner created here is the other one. Everything, setup included, goes through `send`.
 */
export async function badInputTargetOver(send: Send): Promise<BadInputTarget> {
  const api = partnerClient(send);
  const other = await api.json<{ client_id: string; client_secret: string }>('POST', '/v3/sandbox/partners', {
    body: { name: 'other' },
  });
  return {
    send,
    token: await api.token(),
    basic: basic(DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET),
    otherToken: await api.token(other.body.client_id, other.body.client_secret),
    otherBasic: basic(other.body.client_id, other.body.client_secret),
  };
}
