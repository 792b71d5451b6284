import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../support/sandbox.js';

describe('OpenAPI document', () => {
  it('is served without credentials and is a valid OpenAPI 3.1 document', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.app.request('/v3/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, unknown>;
      info: { version: string };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('2026-03-01');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every route the app answers', async () => {
    const sandbox = createTestSandbox();
    const doc = (await (await sandbox.app.request('/v3/openapi.json')).json()) as {
      paths: Record<string, object>;
    };
    for (const path of [
      '/auth/token',
      '/auth/credentials',
      '/auth/credentials/{client_id}',
      '/sandbox/clock',
    ]) {
      expect(doc.paths).toHaveProperty([path]);
    }
  });

  it('serves the docs page with local assets only', async () => {
    const sandbox = createTestSandbox();
    const html = await (await sandbox.app.request('/docs')).text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(1);
    for (const source of sources) {
      expect(source).toMatch(/^\//);
      expect((await sandbox.app.request(source as string)).status).toBe(200);
    }
  });
});
