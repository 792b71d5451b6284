/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { type RunRecord, scenarioRunLog } from '../../engine/scenarios/run-log.js';
import { Badge, Csrf, Empty } from '../components.js';
import { afterAction, type DashboardDeps, type DashboardEnv, redirectWith, render } from '../context.js';
import { utc } from '../format.js';
import { Layout } from '../layout.js';
import { Described, defaultForPeople } from '../scenario-text.js';
import type { List, RunResult, Scenario } from '../types.js';
import { problemPage } from './problem.js';

/** A run's steps: each declared step with its result once it completed. */
export const RunView = ({ run }: { run: RunRecord }) => {
  const done = new Map(run.results.map((r) => [r.index, r]));
  let runningShown = false;
  return (
    <div>
      <p id="run-status" data-run-status={run.status}>
        <Badge status={run.status} /> <strong>{run.scenario}</strong>{' '}
        <span class="muted">
          {run.results.length} of {run.steps.length} steps · started{' '}
          {utc(new Date(run.startedAtMs).toISOString())} (real time)
        </span>
      </p>
      <ol class="steps" id="steps">
        {run.steps.map((step) => {
          const result = done.get(step.index);
          let status = result?.status ?? 'pending';
          if (!result && run.status === 'running' && !runningShown) {
            status = 'running';
            runningShown = true;
          }
          return (
            <li data-step={step.index} data-step-status={status}>
              <Badge status={status} /> {step.name} <span class="muted">({step.kind})</span>
              {result?.detail ? <div class="muted">{result.detail}</div> : null}
            </li>
          );
        })}
      </ol>
    </div>
  );
};

/** Scenarios: the catalogue with a form per scenario, "Run", and each run's steps as they complete. */
export function scenarioPages(app: Hono<DashboardEnv>, { deps }: DashboardDeps) {
  const runs = scenarioRunLog(deps);

  app.get('/dashboard/scenarios', async (c) => {
    const page = c.get('page');
    const catalogue = await c.get('api').get<List<Scenario>>('/v3/sandbox/scenarios');
    if (!catalogue.ok) return problemPage(c, 'scenarios', catalogue.problem, '/dashboard');
    const recent = runs.list(page.partnerId);
    return render(
      c,
      <Layout title="Scenarios" section="scenarios" ctx={page}>
        <h2>Recent runs</h2>
        {recent.length === 0 ? (
          <Empty title="No runs yet.">
            Press "Run" on a scenario below; its steps show up as they complete. Runs started with{' '}
            <code>npx credit-sandbox scenario run</code> appear here too.
          </Empty>
        ) : (
          <ul id="runs">
            {recent.map((run) => (
              <li>
                <a href={`/dashboard/scenarios/runs/${run.id}`}>{run.scenario}</a>{' '}
                <Badge status={run.status} />{' '}
                <span class="muted">{utc(new Date(run.startedAtMs).toISOString())} (real time)</span>
              </li>
            ))}
          </ul>
        )}
        <h2>Catalogue</h2>
        <div class="grid">
          {catalogue.body.data.map((scenario) => (
            <section class="card" data-scenario={scenario.name} aria-label={scenario.name}>
              <h3 style="margin:0 0 .3rem">{scenario.name}</h3>
              <p class="muted">
                <Described text={scenario.description} /> · {scenario.steps} steps
              </p>
              <form method="post" action={`/dashboard/scenarios/${scenario.name}/run`}>
                <Csrf token={page.csrf} />
                {scenario.params.map((param) => (
                  <label style="display:flex;margin-bottom:.4rem">
                    {param.name}
                    {param.required ? ' (required)' : ''}
                    {param.description ? (
                      <span class="muted">
                        <Described text={param.description} />
                      </span>
                    ) : null}
                    <input
                      name={`param.${param.name}`}
                      required={param.required && param.default === null}
                      placeholder={
                        param.default !== null
                          ? `default: ${defaultForPeople(param.default)}`
                          : String(param.example ?? '')
                      }
                    />
                  </label>
                ))}
                <button type="submit" class="primary">
                  Run
                </button>
              </form>
            </section>
          ))}
        </div>
      </Layout>,
    );
  });

  app.post('/dashboard/scenarios/:name/run', async (c) => {
    const name = c.req.param('name');
    const form = await c.req.parseBody();
    const params: Record<string, string> = {};
    for (const [key, value] of Object.entries(form)) {
      if (key.startsWith('param.') && typeof value === 'string' && value.trim() !== '') {
        params[key.slice('param.'.length)] = value.trim();
      }
    }
    let runId: string | undefined;
    let started: () => void = () => {};
    const startedNow = new Promise<void>((resolve) => {
      started = resolve;
    });
    // The run goes on after this answer; its page follows it live from the run log.
    const finished = c.get('api').post<RunResult>(
      `/v3/sandbox/scenarios/${encodeURIComponent(name)}/runs`,
      { params },
      {
        onScenarioRunStarted: (id) => {
          runId = id;
          started();
        },
      },
    );
    finished.catch((error: unknown) => deps.log.error(`dashboard run of scenario ${name} failed`, error));
    const refused = await Promise.race([startedNow.then(() => undefined), finished]);
    if (runId) return redirectWith(c, `/dashboard/scenarios/runs/${runId}`);
    if (refused && !refused.ok) return afterAction(c, refused, '/dashboard/scenarios', '');
    return redirectWith(c, '/dashboard/scenarios', {
      kind: 'error',
      text: `Scenario ${name} did not start.`,
    });
  });

  app.get('/dashboard/scenarios/runs/:id', (c) => {
    const page = c.get('page');
    const run = runs.get(page.partnerId, c.req.param('id'));
    if (!run) {
      return problemPage(
        c,
        'scenarios',
        {
          type: 'about:blank',
          title: 'Not found',
          status: 404,
          detail: `No run ${c.req.param('id')} (runs are kept in memory: the last 20 per partner).`,
        },
        '/dashboard/scenarios',
      );
    }
    const live = run.status === 'running';
    return render(
      c,
      <Layout
        title={`Run of ${run.scenario}`}
        section="scenarios"
        ctx={page}
        live={live}
        refresh={live ? 2 : undefined}
      >
        <div
          id="run"
          {...(live
            ? {
                'hx-ext': 'sse',
                'sse-connect': `/dashboard/scenarios/runs/${run.id}/stream`,
                'sse-swap': 'run',
                'sse-close': 'done',
              }
            : {})}
        >
          <RunView run={run} />
        </div>
        <p>
          <a href="/dashboard/scenarios">All scenarios</a> · <a href="/dashboard/events">Events it caused</a>
        </p>
      </Layout>,
    );
  });

  app.get('/dashboard/scenarios/runs/:id/stream', (c) => {
    const page = c.get('page');
    const run = runs.get(page.partnerId, c.req.param('id'));
    // 204 tells EventSource not to reconnect: a finished or unknown run has nothing more to say.
    if (run?.status !== 'running') return c.body(null, 204);
    return streamSSE(c, async (stream) => {
      let wake: (() => void) | undefined;
      let dirty = true;
      const stop = runs.listen(page.partnerId, (changed) => {
        if (changed.id !== run.id) return;
        dirty = true;
        wake?.();
      });
      stream.onAbort(() => wake?.());
      try {
        while (!stream.aborted) {
          if (!dirty) {
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
            wake = undefined;
            continue;
          }
          dirty = false;
          // The status as rendered: the run may finish while this frame is being written.
          const shown = run.status;
          const html = await (<RunView run={run} />).toString();
          await stream.writeSSE({ event: 'run', data: html });
          if (shown !== 'running') {
            await stream.writeSSE({ event: 'done', data: run.status });
            break;
          }
        }
      } finally {
        stop();
      }
    });
  });
}
