import { describe, expect, it } from 'vitest';
import {
  describeDifference,
  diffAnswers,
  diffEventTypes,
  diffValues,
  enumValuesOf,
  mediaType,
} from './structural-diff.js';

const rules = { enumValues: new Set(['active', 'pending_kyc', 'under_review', 'installment']) };

const customer = (over: Record<string, unknown> = {}) => ({
  id: 'cust_abc123',
  status: 'active',
  name: 'Maria Silva',
  created_at: '2026-11-27T10:00:00.000Z',
  kyc: [{ type: 'document', status: 'active' }],
  ...over,
});

describe('enumValuesOf', () => {
  it('collects every enum and const string of a document, however deep', () => {
    const doc = {
      components: { schemas: { A: { properties: { s: { enum: ['x', 'y', 3] }, t: { const: 'z' } } } } },
      webhooks: { e: { post: { requestBody: { content: { j: { schema: { enum: ['w'] } } } } } } },
    };
    expect([...enumValuesOf(doc)].sort()).toEqual(['w', 'x', 'y', 'z']);
  });

  it('walks a document nested 100,000 deep without overflowing the stack', () => {
    let deep: Record<string, unknown> = { enum: ['bottom'] };
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    expect(enumValuesOf(deep).has('bottom')).toBe(true);
  });
});

describe('diffAnswers', () => {
  it('finds nothing between two answers that differ only in ids, times, free text and amounts', () => {
    const a = { status: 201, headers: { location: '/v3/customers/cust_1' }, body: customer() };
    const b = {
      status: 201,
      headers: { location: '/v3/customers/cust_2' },
      body: customer({ id: 'cust_zz', name: 'João', created_at: '2027-01-01T00:00:00Z' }),
    };
    expect(diffAnswers(a, b, rules)).toEqual([]);
  });

  it('names a status, a missing Location, a problem code and a media type', () => {
    const a = {
      status: 422,
      headers: { location: '/x', 'content-type': 'application/problem+json' },
      body: { code: 'offer_expired' },
    };
    const b = {
      status: 409,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: { code: 'conflict' },
    };
    expect(diffAnswers(a, b, rules).map(describeDifference)).toEqual([
      'status: status 422 → 409',
      'header location: header present → absent',
      'header content-type: media-type application/problem+json → application/json',
      'body.code: code offer_expired → conflict',
    ]);
  });

  it('names a renamed field as one missing and one unexpected', () => {
    const renamed = customer({ status: undefined, state: 'active' });
    delete (renamed as Record<string, unknown>).status;
    const found = diffAnswers({ status: 200, body: customer() }, { status: 200, body: renamed }, rules);
    expect(found).toEqual([
      { at: 'body.state', kind: 'unexpected', expected: 'absent', actual: 'present' },
      { at: 'body.status', kind: 'missing', expected: 'present', actual: 'absent' },
    ]);
  });

  it('names an enum value and a JSON type, deep in arrays', () => {
    const b = customer({ kyc: [{ type: 'document', status: 'under_review' }], name: 7 });
    expect(diffAnswers({ status: 200, body: customer() }, { status: 200, body: b }, rules)).toEqual([
      { at: 'body.kyc[0].status', kind: 'enum', expected: '"active"', actual: '"under_review"' },
      { at: 'body.name', kind: 'type', expected: 'string', actual: 'number' },
    ]);
  });

  it('compares list items pair by pair up to the shorter list', () => {
    const a = { data: [customer(), customer()] };
    const b = { data: [customer({ status: 'pending_kyc' })] };
    expect(diffValues(a, b, rules)).toEqual([
      { at: 'body.data[0].status', kind: 'enum', expected: '"active"', actual: '"pending_kyc"' },
    ]);
  });
});

describe('diffEventTypes', () => {
  it('names a swapped, a missing and an extra event', () => {
    expect(diffEventTypes(['a', 'b', 'c'], ['b', 'a'])).toEqual([
      { at: 'events[0]', kind: 'enum', expected: 'a', actual: 'b' },
      { at: 'events[1]', kind: 'enum', expected: 'b', actual: 'a' },
      { at: 'events[2]', kind: 'missing', expected: 'c', actual: 'absent' },
    ]);
    expect(diffEventTypes(['a'], ['a', 'b'])).toEqual([
      { at: 'events[1]', kind: 'unexpected', expected: 'absent', actual: 'b' },
    ]);
  });
});

describe('mediaType', () => {
  it('drops parameters and case', () => {
    expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(mediaType(undefined)).toBeUndefined();
    expect(mediaType('')).toBeUndefined();
  });
});
