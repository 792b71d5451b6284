/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { Action, Csrf, Empty } from '../components.js';
import { afterAction, type DashboardDeps, type DashboardEnv, field, render } from '../context.js';
import { utc } from '../format.js';
import { Layout } from '../layout.js';
import { ListTable } from '../list-table.js';
import { ImportForm, snapshotFileRoutes } from './snapshot-files.js';

interface Snapshot {
  name: string;
  saved_at: string;
  clock: { now: string; frozen: boolean };
  bytes: number;
  counts: Record<string, number>;
}

/** The tables a person recognises first, in the order shown. */
const SHOWN = ['customers', 'credit_offers', 'loans', 'transactions', 'webhook_endpoints', 'events', 'jobs'];

function sizeOf(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Snapshots: save the partner's world under a name; restore, export (a `.snapshot.json.gz`
 * download) or delete a saved one; import an exported file (from this sandbox or another).
 */
export function snapshotPages(app: Hono<DashboardEnv>, _deps: DashboardDeps) {
  app.get('/dashboard/snapshots', async (c) => {
    const page = c.get('page');
    const result = await c.get('api').get<{ data: Snapshot[] }>('/v3/sandbox/snapshots');
    const list = result.ok ? result.body.data : [];
    return render(
      c,
      <Layout title="Snapshots" section="snapshots" ctx={page}>
        <section class="card" aria-label="Save a snapshot">
          <form class="inline" method="post" action="/dashboard/snapshots">
            <Csrf token={page.csrf} />
            <label>
              Name
              <input
                name="name"
                placeholder="kyc-approved"
                pattern="[a-z0-9][a-z0-9_.\-]{0,62}"
                size={24}
                required
              />
            </label>
            <label>
              <input type="checkbox" name="replace" value="true" /> replace one of that name
            </label>
            <button type="submit" class="primary">
              Save
            </button>
          </form>
          <p class="muted">
            Saves every object, the clock, jobs, events, deliveries and idempotency keys of this partner.
            Restoring puts all of it back at once; credentials stay, no webhook is sent for it. At most 20
            snapshots of 16 MiB each.
          </p>
        </section>
        <ImportForm csrf={page.csrf} />
        <ListTable
          rows={list}
          row={(snapshot) => ({ 'data-snapshot': snapshot.name })}
          columns={[
            { head: 'Name', cell: (snapshot) => <code>{snapshot.name}</code> },
            {
              head: 'Saved at (partner clock)',
              cell: (snapshot) => (
                <>
                  {utc(snapshot.saved_at)} {snapshot.clock.frozen ? '(frozen)' : '(running)'}
                </>
              ),
            },
            {
              head: 'Holds',
              cell: (snapshot) =>
                SHOWN.filter((table) => (snapshot.counts[table] ?? 0) > 0)
                  .map((table) => `${snapshot.counts[table]} ${table.replace(/_/g, ' ')}`)
                  .join(', ') || 'nothing',
            },
            { head: 'Size', cell: (snapshot) => sizeOf(snapshot.bytes) },
            {
              head: 'Actions',
              cell: (snapshot) => (
                <>
                  <Action
                    action={`/dashboard/snapshots/${snapshot.name}/restore`}
                    label="Restore"
                    csrf={page.csrf}
                    tone="primary"
                  />{' '}
                  <a
                    class="button"
                    href={`/dashboard/snapshot-files/export?name=${encodeURIComponent(snapshot.name)}`}
                    download={`${snapshot.name}.snapshot.json.gz`}
                  >
                    Export
                  </a>{' '}
                  <Action
                    action="/dashboard/snapshot-files/delete"
                    label="Delete"
                    csrf={page.csrf}
                    tone="danger"
                  >
                    <input type="hidden" name="name" value={snapshot.name} />
                  </Action>
                </>
              ),
            },
          ]}
          empty={
            <Empty title="No snapshots yet.">
              Save one above, or with <code>POST /v3/sandbox/snapshots</code> or{' '}
              <code>credit-sandbox snapshot save &lt;name&gt;</code>.
            </Empty>
          }
        />
      </Layout>,
    );
  });

  app.post('/dashboard/snapshots', async (c) => {
    const form = await c.req.parseBody();
    const name = field(form, 'name');
    const replace = field(form, 'replace') === 'true';
    const result = await c
      .get('api')
      .post('/v3/sandbox/snapshots', { name, ...(replace ? { replace } : {}) });
    return afterAction(c, result, '/dashboard/snapshots', `Snapshot ${name} saved.`);
  });

  snapshotFileRoutes(app);

  app.post('/dashboard/snapshots/:name/restore', async (c) => {
    const name = c.req.param('name');
    const result = await c
      .get('api')
      .post<{ abandoned_deliveries: number }>(`/v3/sandbox/snapshots/${encodeURIComponent(name)}/restore`);
    const abandoned = result.ok && result.body.abandoned_deliveries > 0;
    const note = abandoned
      ? ` ${result.body.abandoned_deliveries} webhook attempts in flight were abandoned.`
      : '';
    return afterAction(c, result, '/dashboard/snapshots', `Snapshot ${name} restored.${note}`);
  });
}
