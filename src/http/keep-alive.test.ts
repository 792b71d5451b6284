import { createServer, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  KEEP_ALIVE_GRACE_MS,
  keepIdleConnectionsPastTheirHint,
} from './keep-alive.js';

describe('keepIdleConnectionsPastTheirHint', () => {
  it('without a built-in buffer: idles out after the hint plus the grace, advertises the hint, adds no listener', () => {
    const server = createServer();
    delete (server as { keepAliveTimeoutBuffer?: number }).keepAliveTimeoutBuffer;
    const listeners = server.listenerCount('request');
    const advertise = keepIdleConnectionsPastTheirHint(server, 2_000);
    expect(server.keepAliveTimeout).toBe(2_000 + KEEP_ALIVE_GRACE_MS);
    expect(server.listenerCount('request')).toBe(listeners);
    const res = { _keepAliveTimeout: server.keepAliveTimeout } as ServerResponse & {
      _keepAliveTimeout: number;
    };
    advertise?.(res);
    expect(res._keepAliveTimeout).toBe(2_000);
  });

  it("with Node's buffer (24.6+): the hint and the buffer on the server, nothing per request", () => {
    const server = createServer();
    (server as { keepAliveTimeoutBuffer?: number }).keepAliveTimeoutBuffer = 1_000;
    expect(keepIdleConnectionsPastTheirHint(server)).toBeUndefined();
    expect(server.keepAliveTimeout).toBe(DEFAULT_KEEP_ALIVE_TIMEOUT_MS);
    expect((server as { keepAliveTimeoutBuffer?: number }).keepAliveTimeoutBuffer).toBe(KEEP_ALIVE_GRACE_MS);
  });
});
