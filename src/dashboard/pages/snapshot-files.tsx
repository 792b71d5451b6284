/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { Csrf } from '../components.js';
import { afterAction, type DashboardEnv, field, redirectWith } from '../context.js';

/** The largest file the import form takes: a snapshot's own bound (16 MiB) and some room. */
export const MAX_IMPORT_UPLOAD = 17 * 1024 * 1024;

/** "Import a snapshot": an exported file (`.snapshot.json` or `.json.gz`), kept and restored. */
export const ImportForm = ({ csrf }: { csrf: string }) => (
  <section class="card" aria-label="Import a snapshot">
    <form
      class="inline"
      method="post"
      action="/dashboard/snapshot-files/import"
      enctype="multipart/form-data"
    >
      <Csrf token={csrf} />
      <label>
        Exported file
        <input type="file" name="file" accept=".json,.gz,application/json,application/gzip" required />
      </label>
      <label>
        Name
        <input name="name" placeholder="as in the file" pattern="[a-z0-9][a-z0-9_.\-]{0,62}" size={16} />
      </label>
      <label>
        <input type="checkbox" name="replace" value="true" /> replace one of that name
      </label>
      <button type="submit">Import and restore</button>
    </form>
    <p class="muted">
      A file exported here, with <code>credit-sandbox snapshot export</code> or from another sandbox: it is
      checked whole, kept as a snapshot of this partner and put in place, ids and all.
    </p>
  </section>
);

const GZIP = [0x1f, 0x8b];

/** Export (a download), import (an upload) and delete, each through the snapshot API. */
export function snapshotFileRoutes(app: Hono<DashboardEnv>) {
  // Names travel in the query or the form, under a prefix of their own: beside the
  // /dashboard/snapshots/:name/restore pattern, Hono's fastest router takes no static path.
  app.get('/dashboard/snapshot-files/export', async (c) => {
    const name = c.req.query('name') ?? '';
    if (!name) return redirectWith(c, '/dashboard/snapshots', { kind: 'error', text: 'No snapshot named.' });
    const res = await c
      .get('api')
      .raw('GET', `/v3/sandbox/snapshots/${encodeURIComponent(name)}/export?gzip=1`);
    if (!res.ok) {
      const problem = (await res.json().catch(() => ({}))) as { title?: string; detail?: string };
      return redirectWith(c, '/dashboard/snapshots', {
        kind: 'error',
        text: `${problem.title ?? 'Export failed'}: ${problem.detail ?? res.status}`,
      });
    }
    return c.body(new Uint8Array(await res.arrayBuffer()), 200, {
      'content-type': 'application/gzip',
      'content-disposition': `attachment; filename="${name}.snapshot.json.gz"`,
      'cache-control': 'no-store',
    });
  });

  app.post('/dashboard/snapshot-files/import', async (c) => {
    const form = await c.req.parseBody();
    const file = form.file;
    if (!(file instanceof File) || file.size === 0) {
      return redirectWith(c, '/dashboard/snapshots', {
        kind: 'error',
        text: 'Choose an exported snapshot file.',
      });
    }
    const data = new Uint8Array(await file.arrayBuffer());
    const gzip = data[0] === GZIP[0] && data[1] === GZIP[1];
    const query = new URLSearchParams();
    const name = field(form, 'name');
    if (name) query.set('name', name);
    if (field(form, 'replace') === 'true') query.set('replace', 'true');
    const res = await c
      .get('api')
      .raw('POST', `/v3/sandbox/snapshots/import${query.size ? `?${query}` : ''}`, {
        data,
        contentType: gzip ? 'application/gzip' : 'application/json',
      });
    const body = (await res.json().catch(() => ({}))) as { name?: string; title?: string; detail?: string };
    if (res.ok) {
      return redirectWith(c, '/dashboard/snapshots', {
        kind: 'ok',
        text: `Snapshot ${body.name ?? name} imported and restored.`,
      });
    }
    return redirectWith(c, '/dashboard/snapshots', {
      kind: 'error',
      text: `${body.title ?? 'Import failed'}: ${body.detail ?? res.status}`,
    });
  });

  app.post('/dashboard/snapshot-files/delete', async (c) => {
    const name = field(await c.req.parseBody(), 'name');
    if (!name) return redirectWith(c, '/dashboard/snapshots', { kind: 'error', text: 'No snapshot named.' });
    const result = await c.get('api').delete(`/v3/sandbox/snapshots/${encodeURIComponent(name)}`);
    return afterAction(c, result, '/dashboard/snapshots', `Snapshot ${name} deleted.`);
  });
}
