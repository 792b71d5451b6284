import { buildConnector, Client } from 'undici';
import type { Send } from './bad-input.js';

export interface OneConnection {
  /** Sends each request over the one kept-alive connection (undici's request API). */
  send: Send;
  /** Connections opened so far (a new one only after the server or undici closed the last). */
  opened(): number;
  close(): Promise<void>;
}

/**
 * A client holding a single kept-alive connection, as a connection pool reuses its sockets: a
 * server that closes a connection it called kept-alive fails the next request sent over it
 * ("other side closed"). undici's request API, not fetch: it writes a body given whole at once,
 * so the answer to it finds the request sent and the connection is kept (fetch streams the body,
 * and undici drops a connection whose answer came while it was still sending).
 */
export function oneConnection(origin: string): OneConnection {
  const connect = buildConnector({});
  let opened = 0;
  // A Client is exactly one connection. (undici 7.30's Agent, once a connection of an origin had
  // ended, closed and replaced its client for that origin after every request.)
  const dispatcher = new Client(origin, {
    pipelining: 1,
    connect: (options, callback) => {
      opened++;
      connect(options, callback);
    },
  });
  const send: Send = async (path, init) => {
    const answer = await dispatcher.request({
      path,
      method: (init.method ?? 'GET') as 'GET',
      headers: init.headers as Record<string, string> | undefined,
      body: init.body as string | Buffer | undefined,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const v of Array.isArray(value) ? value : [value ?? '']) headers.append(name, v);
    }
    const body = await answer.body.arrayBuffer();
    return new Response(answer.statusCode === 204 ? null : body, { status: answer.statusCode, headers });
  };
  return { send, opened: () => opened, close: () => dispatcher.close() };
}
