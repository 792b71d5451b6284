import { describe, expect, it } from 'vitest';
import { compareRuns } from './compare.js';
import type { Answer } from './http.js';
import { Recorder } from './recorder.js';
import type { RunOutcome } from './runner.js';

function answer(label: string, status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  const [method, path] = label.split(' ') as [string, string];
  return {
    method,
    path,
    label,
    status,
    headers: { 'content-type': 'application/json', ...headers },
    text: JSON.stringify(body),
    body,
    request: { method, path },
  };
}

function outcome(
  target: string,
  exchanges: Record<string, Answer[]>,
  events: Record<string, string[]> = {},
): RunOutcome {
  const recorder = new Recorder();
  for (const [scope, answers] of Object.entries(exchanges))
    for (const a of answers) recorder.sink(scope).record(a);
  for (const [scope, types] of Object.entries(events)) recorder.addEvents(scope, types);
  return {
    target,
    mode: 'controlled',
    startedAt: '2026-03-02T12:00:00.000Z',
    finishedAt: '2026-03-02T12:00:01.000Z',
    results: Object.keys(exchanges).map((id) => ({ id, title: id, spec: 's', status: 'pass' as const })),
    recorder,
    enumValues: new Set(['pending_kyc', 'active']),
  };
}

describe('--compare', () => {
  const customer = (extra: Record<string, unknown> = {}) => ({
    id: 'cust_1',
    status: 'pending_kyc',
    trading_name: null,
    ...extra,
  });

  it('lists each distinct structural difference once, with how often it was seen', () => {
    const left = outcome('a', {
      'customers.one': [
        answer('POST /customers', 201, customer(), { location: '/v3/customers/cust_1' }),
        answer('GET /customers/{id}', 200, customer()),
      ],
      'customers.two': [answer('GET /customers/{id}', 200, customer({ id: 'cust_2' }))],
    });
    const right = outcome('b', {
      'customers.one': [
        answer(
          'POST /customers',
          201,
          { ...customer(), tradingName: null, trading_name: undefined },
          { location: '/v3/customers/cust_9' },
        ),
        answer('GET /customers/{id}', 200, customer({ status: 'active' })),
      ],
      'customers.two': [answer('GET /customers/{id}', 200, customer({ id: 'cust_8', status: 'active' }))],
    });
    const { differences } = compareRuns(left, right);
    expect(differences.map((d) => [d.request, d.at, d.kind, d.expected, d.actual, d.count])).toEqual(
      [
        ['POST /customers', 'body.tradingName', 'unexpected', 'absent', 'present'],
        ['POST /customers', 'body.trading_name', 'missing', 'present', 'absent'],
        ['GET /customers/{id}', 'body.status', 'enum', '"pending_kyc"', '"active"'],
      ].map((row, i) => [...row, i === 2 ? 2 : 1]),
    );
  });

  it('ignores the control API and tokens, and stops pairing where the two runs took different paths', () => {
    const left = outcome('a', {
      c: [
        answer('POST /auth/token', 200, { access_token: 'x' }),
        answer('POST /sandbox/clock/advance', 200, {}),
        answer('GET /loans/{id}', 200, {}),
      ],
    });
    const right = outcome('b', {
      c: [
        answer('POST /auth/token', 401, {}),
        answer('GET /credit-offers/{id}', 200, {}),
        answer('GET /loans/{id}', 200, {}),
      ],
    });
    expect(compareRuns(left, right).differences.map((d) => [d.at, d.kind, d.expected, d.actual])).toEqual([
      ['request #1', 'unexpected', 'GET /loans/{id}', 'GET /credit-offers/{id}'],
    ]);
  });

  it('compares the event types each endpoint received, in order', () => {
    const left = outcome('a', { c: [] }, { c: ['customer.created', 'customer.active'] });
    const right = outcome('b', { c: [] }, { c: ['customer.created'] });
    expect(compareRuns(left, right).differences.map((d) => [d.request, d.at, d.kind, d.expected])).toEqual([
      ['webhook deliveries', 'events[*]', 'missing', 'customer.active'],
    ]);
  });
});
