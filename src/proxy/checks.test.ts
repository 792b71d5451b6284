import { describe, expect, it } from 'vitest';
import { checkExchange, type ExchangeView } from './checks.js';
import { Contract } from './contract.js';

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };
const document = {
  openapi: '3.1.0',
  servers: [{ url: 'https://api.example.com/v3' }],
  components: {
    schemas: {
      Problem: { type: 'object', required: ['status'], properties: { status: { type: 'integer' } } },
      Thing: {
        type: 'object',
        required: ['id', 'status'],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          status: { enum: ['new', 'done'] },
          at: { type: 'string', format: 'date-time' },
        },
      },
    },
    headers: {
      Location: { required: true, schema: { type: 'string' } },
      Limit: { schema: { type: 'integer', minimum: 0 } },
    },
  },
  paths: {
    '/things': {
      post: {
        operationId: 'createThing',
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
            },
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file'],
                properties: { file: { type: 'string', format: 'binary' } },
              },
            },
          },
        },
        responses: {
          '201': {
            headers: {
              Location: { $ref: '#/components/headers/Location' },
              'RateLimit-Limit': { $ref: '#/components/headers/Limit' },
            },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          '429': { headers: { 'RateLimit-Limit': { $ref: '#/components/headers/Limit' } }, content: problem },
          '4XX': { content: problem },
        },
      },
    },
    '/things/{id}': { delete: { operationId: 'deleteThing', responses: { '204': { description: 'gone' } } } },
    '/things/special': {
      delete: { operationId: 'deleteSpecial', responses: { '204': { description: 'gone' } } },
    },
  },
};

const contract = new Contract(document);
const json = (value: unknown) => {
  const bytes = Buffer.from(JSON.stringify(value));
  return { size: bytes.length, bytes };
};
const empty = { size: 0, bytes: undefined };

function view(overrides: Partial<ExchangeView>): ExchangeView {
  return {
    method: 'POST',
    path: '/things',
    requestHeaders: { 'content-type': 'application/json' },
    requestBody: json({ name: 'a' }),
    status: 201,
    responseHeaders: { 'content-type': 'application/json', location: '/v3/things/1' },
    responseBody: json({ id: 't_1', status: 'new' }),
    ...overrides,
  };
}

const departures = async (overrides: Partial<ExchangeView>) =>
  (await checkExchange(contract, view(overrides))).departures;

describe('exchange checks', () => {
  it('a conforming exchange has no departure; literal paths win over templates', async () => {
    expect(await departures({})).toEqual([]);
    expect(contract.match('DELETE', '/things/special')?.id).toBe('deleteSpecial');
    expect(contract.match('DELETE', '/things/t_1')?.id).toBe('deleteThing');
    expect(contract.match('GET', '/things')).toBeUndefined();
  });

  it('names each departure: operation, status, media type, required header, header value, body', async () => {
    expect(await departures({ method: 'GET' })).toEqual([
      { where: 'operation', expected: 'a method and path the document declares', actual: 'GET /things' },
    ]);
    expect(await departures({ status: 302 })).toEqual([
      { where: 'status', expected: 'one of 201, 429, 4XX', actual: '302' },
    ]);
    expect(
      await departures({
        status: 404,
        responseHeaders: { 'content-type': 'application/json' },
        responseBody: json({ status: 404 }),
      }),
    ).toEqual([
      { where: 'response content-type', expected: 'application/problem+json', actual: 'application/json' },
    ]);
    expect(await departures({ responseHeaders: { 'content-type': 'application/json' } })).toEqual([
      { where: 'response header Location', expected: 'present (required)', actual: 'absent' },
    ]);
    expect(
      await departures({
        responseHeaders: { 'content-type': 'application/json', location: '/x', 'ratelimit-limit': 'ten' },
      }),
    ).toEqual([
      { where: 'response header RateLimit-Limit', expected: 'type: must be integer', actual: '"ten"' },
    ]);
    expect(await departures({ responseBody: json({ id: 't_1', status: 'old', extra: 1 }) })).toEqual([
      { where: 'response.body.extra', expected: 'absent (not in the schema)', actual: 'present' },
    ]);
    expect(await departures({ responseBody: json({ id: 't_1', status: 'old' }) })).toEqual([
      { where: 'response.body.status', expected: 'one of "new", "done"', actual: '"old"' },
    ]);
    expect(await departures({ responseBody: json({ id: 7, status: 'new' }) })).toEqual([
      { where: 'response.body.id', expected: 'type string', actual: 'integer 7' },
    ]);
    expect(await departures({ responseBody: json({ id: 't', status: 'new', at: 'yesterday' }) })).toEqual([
      { where: 'response.body.at', expected: 'format: must match format "date-time"', actual: '"yesterday"' },
    ]);
  });

  it('a 429 must carry the rate-limit headers its answer declares', async () => {
    expect(
      await departures({
        status: 429,
        responseHeaders: { 'content-type': 'application/problem+json' },
        responseBody: json({ status: 429 }),
      }),
    ).toEqual([
      { where: 'response header RateLimit-Limit', expected: 'present (required)', actual: 'absent' },
    ]);
  });

  it('checks the request: media type, JSON, schema; multipart parts stand in as strings', async () => {
    expect(
      await departures({ requestHeaders: { 'content-type': 'text/plain' }, requestBody: json('x') }),
    ).toEqual([
      {
        where: 'request content-type',
        expected: 'application/json or multipart/form-data',
        actual: 'text/plain',
      },
    ]);
    expect(await departures({ requestBody: { size: 1, bytes: Buffer.from('{') } })).toEqual([
      { where: 'request.body', expected: 'application/json', actual: 'not JSON' },
    ]);
    expect(await departures({ requestBody: json({}) })).toEqual([
      { where: 'request.body.name', expected: 'present (required)', actual: 'absent' },
    ]);
    const form = new FormData();
    form.set('file', new File([Buffer.from('%PDF')], 'a.pdf', { type: 'application/pdf' }));
    const encoded = new Response(form);
    const bytes = Buffer.from(await encoded.arrayBuffer());
    const verdict = await checkExchange(
      contract,
      view({
        requestHeaders: { 'content-type': encoded.headers.get('content-type')! },
        requestBody: { size: bytes.length, bytes },
      }),
    );
    expect(verdict.departures).toEqual([]);
    expect(verdict.request).toEqual({
      kind: 'multipart',
      fields: {},
      files: [{ field: 'file', filename: 'a.pdf', content_type: 'application/pdf', size: 4 }],
    });
  });

  it('a body over the validation limit is noted, not validated; an answer declared without content has none', async () => {
    const verdict = await checkExchange(
      contract,
      view({ responseBody: { size: 5_000_000, bytes: undefined } }),
    );
    expect(verdict.departures).toEqual([]);
    expect(verdict.notes).toEqual([
      'response body of 5000000 bytes is over the validation limit: not validated',
    ]);
    expect(
      await departures({
        method: 'DELETE',
        path: '/things/1',
        requestBody: empty,
        status: 204,
        responseHeaders: {},
        responseBody: empty,
      }),
    ).toEqual([]);
    expect(
      await departures({
        method: 'DELETE',
        path: '/things/1',
        requestBody: empty,
        status: 204,
        responseBody: json({}),
      }),
    ).toEqual([{ where: 'response.body', expected: 'no body', actual: 'a body (application/json)' }]);
  });
});
