/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import type { z } from 'zod';
import type { FaultRuleSchema } from '../../api/schemas/faults.js';
import { Action, Empty, When } from '../components.js';
import {
  afterAction,
  type DashboardDeps,
  type DashboardEnv,
  field,
  redirectWith,
  render,
} from '../context.js';
import { Layout } from '../layout.js';
import { Table } from '../list-table.js';
import { addFaultRoute, FaultForm, faultableOperations } from './fault-form.js';
import { problemPage } from './problem.js';

type FaultRule = z.infer<typeof FaultRuleSchema>;

/** How long a rule lasts, in words. */
const lasting = (rule: FaultRule): string =>
  [
    rule.times_left !== null ? `${rule.times_left} more call${rule.times_left === 1 ? '' : 's'}` : null,
    rule.probability !== null ? `each call with p = ${rule.probability}` : null,
  ]
    .filter(Boolean)
    .join(', ') || 'every matching call';

/**
 * Faults: a form that adds a rule, the partner's API-side fault rules in force
 * (`/v3/sandbox/faults`), each with a Delete button, and Clear to remove them all.
 */
export function faultPages(app: Hono<DashboardEnv>, { deps }: DashboardDeps) {
  app.get('/dashboard/faults', async (c) => {
    const page = c.get('page');
    const result = await c.get('api').get<{ data: FaultRule[] }>('/v3/sandbox/faults');
    if (!result.ok) return problemPage(c, 'faults', result.problem, '/dashboard/faults');
    const rules = result.body.data;
    const operations = await faultableOperations(c, deps);
    return render(
      c,
      <Layout title="Faults" section="faults" ctx={page}>
        <FaultForm csrf={page.csrf} operations={operations} />
        {rules.length === 0 ? (
          <Empty title="No fault rules: the API answers normally.">
            Make the API itself fail on command with <code>POST /v3/sandbox/faults</code>, e.g.{' '}
            <code>
              {'{"match": {"method": "POST", "path": "/loans"}, "action": {"status": 503}, "times": 1}'}
            </code>
            , or <code>credit-sandbox faults add POST /loans --status 503 --times 1</code>.
          </Empty>
        ) : (
          <>
            <p>
              <Action
                action="/dashboard/faults/clear"
                label="Clear all fault rules"
                csrf={page.csrf}
                tone="danger"
              />
            </p>
            <Table
              id="faults"
              rows={rules}
              row={(rule) => ({ 'data-fault-rule': rule.id })}
              columns={[
                {
                  label: 'Rule',
                  cell: (rule) => (
                    <>
                      <code>{rule.id}</code>
                      <div class="muted">
                        added <When iso={rule.created_at} nowMs={page.nowMs} />
                      </div>
                    </>
                  ),
                },
                {
                  label: 'Matches',
                  cell: (rule) => (
                    <code>
                      {rule.match.method ?? 'any'} {rule.match.path}
                    </code>
                  ),
                },
                { label: 'Action', cell: (rule) => <code>{JSON.stringify(rule.action)}</code> },
                {
                  label: 'Lasts',
                  cell: (rule) => (
                    <>
                      {lasting(rule)}
                      {rule.expires_at ? (
                        <div class="muted">
                          until <When iso={rule.expires_at} nowMs={page.nowMs} />
                        </div>
                      ) : null}
                    </>
                  ),
                },
                { label: 'Applied', num: true, cell: (rule) => rule.applied },
                {
                  cell: (rule) => (
                    <Action action="/dashboard/faults/delete" label="Delete" csrf={page.csrf}>
                      <input type="hidden" name="id" value={rule.id} />
                    </Action>
                  ),
                },
              ]}
            />
          </>
        )}
        <p class="muted">
          Rules act on this partner's own API calls in order of creation; sandbox control routes, the
          dashboard and hosted pages are never faulted. Faulted calls are marked on the{' '}
          <a href="/dashboard/requests">Requests</a> page.
        </p>
      </Layout>,
    );
  });

  addFaultRoute(app);

  app.post('/dashboard/faults/clear', async (c) => {
    const result = await c.get('api').delete<{ deleted: number }>('/v3/sandbox/faults');
    const deleted = result.ok ? result.body.deleted : 0;
    return afterAction(
      c,
      result,
      '/dashboard/faults',
      `${deleted} fault rule${deleted === 1 ? '' : 's'} cleared.`,
    );
  });

  // The rule's id travels in the form: a static path beside /clear keeps Hono's fastest router.
  app.post('/dashboard/faults/delete', async (c) => {
    const id = field(await c.req.parseBody(), 'id');
    // An empty id would name the collection (DELETE /v3/sandbox/faults clears every rule).
    if (!id) return redirectWith(c, '/dashboard/faults', { kind: 'error', text: 'No fault rule named.' });
    const result = await c.get('api').delete(`/v3/sandbox/faults/${encodeURIComponent(id)}`);
    return afterAction(c, result, '/dashboard/faults', `Fault rule ${id} deleted.`);
  });
}
