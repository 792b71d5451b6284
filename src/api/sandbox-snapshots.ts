import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { createRoute } from '@hono/zod-openapi';
import { deleteSnapshot, getSnapshot, listSnapshots, snapshotDocument } from '../domain/snapshots.js';
import type { AppDeps } from '../http/deps.js';
import { sendJson } from '../http/json-text.js';
import { createRouter } from '../http/router.js';
import { listText, viewText } from '../lib/view-text.js';
import { COMMON_ERRORS, json, problemResponses } from './schemas/common.js';
import {
  CreateSnapshotBody,
  DeletedSnapshotSchema,
  ExportQuery,
  ImportQuery,
  RestoredSnapshotSchema,
  SnapshotDocumentSchema,
  SnapshotListSchema,
  SnapshotParams,
  SnapshotSchema,
} from './schemas/snapshots.js';
import {
  importSnapshot,
  parseSnapshotUpload,
  refuseWhenFull,
  restoreSnapshot,
  saveSnapshot,
  snapshotView,
} from './snapshot-service.js';
import { oneImportAtATime } from './snapshot-upload.js';

/** A snapshot's export as JSON, made once per snapshot (at most 2 × 8 MiB of them kept). */
const exportText = viewText(snapshotDocument, 8 * 1024 * 1024);

/** A snapshot's summary as JSON, serialised once per row (a snapshot never changes). */
const snapshotJson = viewText(snapshotView);

const gzip = promisify(gzipCallback);
const tags = ['Sandbox control'];
const text = { schema: { type: 'string' as const } };

const create = createRoute({
  method: 'post',
  path: '/sandbox/snapshots',
  operationId: 'createSnapshot',
  tags,
  summary: "Save the partner's whole world under a name",
  description:
    'Saves every object of the calling partner (customers, documents, offers, simulations, loans, installments, webhook endpoints with secrets and chaos, deliveries, events, pending jobs, idempotency keys), its clock (time, frozen or running) and its random-stream position. Not saved: credentials, the request log, other snapshots. A partner keeps at most 20 snapshots of at most 16 MiB each (64 MiB together, 422 `snapshot_limit_reached`); the instance keeps at most `--max-snapshot-bytes-total` (128 MiB by default) for all partners together (507 `snapshot_storage_full`).',
  request: { body: { required: true, content: { 'application/json': { schema: CreateSnapshotBody } } } },
  responses: {
    201: {
      ...json(SnapshotSchema, 'The snapshot saved'),
      headers: { Location: { ...text, description: '/v3/sandbox/snapshots/<name>' } },
    },
    ...problemResponses(400, 409, 422, ...COMMON_ERRORS, 507),
  },
});

const list = createRoute({
  method: 'get',
  path: '/sandbox/snapshots',
  operationId: 'listSnapshots',
  tags,
  summary: "List the partner's snapshots, newest first",
  description: 'At most 20 (the bound per partner), so always one page: `has_more` is false.',
  responses: { 200: json(SnapshotListSchema, 'Snapshots'), ...problemResponses(...COMMON_ERRORS) },
});

const show = createRoute({
  method: 'get',
  path: '/sandbox/snapshots/{name}',
  operationId: 'getSnapshot',
  tags,
  summary: 'Read one snapshot (what it holds, not the rows)',
  request: { params: SnapshotParams },
  responses: { 200: json(SnapshotSchema, 'The snapshot'), ...problemResponses(400, 404, ...COMMON_ERRORS) },
});

const remove = createRoute({
  method: 'delete',
  path: '/sandbox/snapshots/{name}',
  operationId: 'deleteSnapshot',
  tags,
  summary: 'Delete a snapshot (the world stays as it is)',
  request: { params: SnapshotParams },
  responses: {
    200: json(DeletedSnapshotSchema, 'Deleted'),
    ...problemResponses(400, 404, ...COMMON_ERRORS),
  },
});

const restore = createRoute({
  method: 'post',
  path: '/sandbox/snapshots/{name}/restore',
  operationId: 'restoreSnapshot',
  tags,
  summary: "Put the partner's world back as it was saved",
  description:
    'Atomic: no request of the partner sees half of it. Every object, the clock, jobs, event and delivery logs, idempotency keys, endpoints and the random-stream position are as at the save; credentials (so this token) and the request log stay. No webhook is sent for the restore. Webhook attempts waiting or in flight now are abandoned; see `abandoned_deliveries` and docs/snapshots.md.',
  request: { params: SnapshotParams },
  responses: {
    200: json(RestoredSnapshotSchema, 'The world is the snapshot now'),
    ...problemResponses(400, 404, 409, ...COMMON_ERRORS),
  },
});

const exportRoute = createRoute({
  method: 'get',
  path: '/sandbox/snapshots/{name}/export',
  operationId: 'exportSnapshot',
  tags,
  summary: 'Download a snapshot as one versioned JSON document',
  description:
    '`{"format": "credit-sandbox-snapshot", "version": 1, "partner", "name", "saved_at", "clock", "random_draws", "tables"}`. With `?gzip=1` the answer is a gzip file (`application/gzip`); otherwise JSON, compressed on the wire (`Content-Encoding: gzip`) when the request sends `Accept-Encoding: gzip`. `POST /v3/sandbox/snapshots/import` takes either back.',
  request: { params: SnapshotParams, query: ExportQuery },
  responses: {
    200: {
      description: 'The export document',
      headers: {
        'Content-Disposition': {
          ...text,
          description: 'attachment; filename="<name>.snapshot.json" (or .json.gz)',
        },
        'Content-Encoding': {
          ...text,
          description: 'gzip, when the request accepted it (JSON answers only)',
        },
        Vary: { ...text, description: 'Accept-Encoding' },
      },
      content: {
        'application/json': { schema: SnapshotDocumentSchema },
        'application/gzip': { schema: { type: 'string', format: 'binary' } },
      },
    },
    ...problemResponses(400, 404, ...COMMON_ERRORS),
  },
});

const importRoute = createRoute({
  method: 'post',
  path: '/sandbox/snapshots/import',
  operationId: 'importSnapshot',
  tags,
  summary: 'Import an exported snapshot into this partner and restore it',
  description:
    "Takes the export document (JSON, or gzip of it: detected from its first bytes, whatever the `Content-Type`), checks it whole, keeps it as a snapshot of this partner (its `name`, or `?name=`) and puts it in place, with its ids (rows move to this partner) and fresh sequence numbers. Every row is checked like the API's own writes: its table's fields, types, patterns and ranges, ids that name rows of the same world, and the webhook URL rules of this sandbox. All or nothing: a document that fails answers 422 `snapshot_invalid` naming the table, row id and field (`errors` lists up to 10), nesting deeper than 64 answers 400 `json_too_deep`, more than 17 MiB once decompressed 422 `snapshot_limit_reached`, and an instance without room 507 `snapshot_storage_full`; a failure after the checks puts the partner back as it was. Ids another partner of this sandbox holds answer 409 `snapshot_ids_taken`. See docs/snapshots.md.",
  request: {
    query: ImportQuery,
    body: {
      required: true,
      content: {
        // A plain schema object (not zod) so the body reaches the route unparsed: a damaged
        // document must answer 422 snapshot_invalid, not the validator's 400.
        'application/json': { schema: { $ref: '#/components/schemas/SnapshotDocument' } },
        'application/gzip': { schema: { type: 'string', format: 'binary' } },
      },
    },
  },
  responses: {
    201: {
      ...json(RestoredSnapshotSchema, 'Imported, kept and restored'),
      headers: { Location: { ...text, description: '/v3/sandbox/snapshots/<name>' } },
    },
    ...problemResponses(400, 409, 413, 422, ...COMMON_ERRORS, 507),
  },
});

export function sandboxSnapshotRoutes(deps: AppDeps) {
  const app = createRouter();
  app.openAPIRegistry.register('SnapshotDocument', SnapshotDocumentSchema);

  app.openapi(create, (c) => {
    const body = c.req.valid('json');
    const row = saveSnapshot(deps, c.get('partner').id, body.name, body.replace === true);
    c.header('Location', `/v3/sandbox/snapshots/${row.name}`);
    return c.json(snapshotView(row), 201);
  });

  app.openapi(list, (c) => {
    const rows = listSnapshots(deps.store, c.get('partner').id);
    return sendJson(c, listText(rows.map(snapshotJson), false), 200);
  });

  app.openapi(show, (c) =>
    sendJson(c, snapshotJson(getSnapshot(deps.store, c.get('partner').id, c.req.valid('param').name)), 200),
  );

  app.openapi(remove, (c) => {
    const row = deleteSnapshot(deps.store, c.get('partner').id, c.req.valid('param').name);
    return c.json({ name: row.name, deleted: true as const }, 200);
  });

  app.openapi(restore, (c) =>
    c.json(restoreSnapshot(deps, c.get('partner').id, c.req.valid('param').name), 200),
  );

  app.openapi(exportRoute, async (c) => {
    const row = getSnapshot(deps.store, c.get('partner').id, c.req.valid('param').name);
    const text = exportText(row);
    const file = ['1', 'true'].includes(c.req.valid('query').gzip ?? '');
    const headers: Record<string, string> = { Vary: 'Accept-Encoding' };
    if (file) {
      headers['Content-Type'] = 'application/gzip';
      headers['Content-Disposition'] = `attachment; filename="${row.name}.snapshot.json.gz"`;
      return c.body(new Uint8Array(await gzip(Buffer.from(text))), 200, headers);
    }
    headers['Content-Type'] = 'application/json; charset=utf-8';
    headers['Content-Disposition'] = `attachment; filename="${row.name}.snapshot.json"`;
    if (/\bgzip\b/i.test(c.req.header('accept-encoding') ?? '')) {
      headers['Content-Encoding'] = 'gzip';
      return c.body(new Uint8Array(await gzip(Buffer.from(text))), 200, headers);
    }
    return c.body(text, 200, headers);
  });

  app.openapi(importRoute, async (c) => {
    const query = c.req.valid('query');
    const body = new Uint8Array(await c.req.arrayBuffer());
    const result = await oneImportAtATime(async () => {
      const partnerId = c.get('partner').id;
      refuseWhenFull(deps, partnerId);
      const document = await parseSnapshotUpload(body, (bytes) => refuseWhenFull(deps, partnerId, bytes));
      return importSnapshot(deps, partnerId, document, {
        name: query.name,
        replace: query.replace === 'true',
      });
    });
    c.header('Location', `/v3/sandbox/snapshots/${result.snapshot.name}`);
    return c.json(result, 201);
  });

  return app;
}
