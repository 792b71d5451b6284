/** @jsxImportSource hono/jsx */
import type { Problem } from '../api-client.js';
import type { DashboardContext } from '../context.js';
import { render } from '../context.js';
import { Layout, type Section } from '../layout.js';

/**
 * The page for an API problem while reading: another partner's id answers 404 exactly as the API
 * does, with nothing of the other partner's data.
 */
export function problemPage(c: DashboardContext, section: Section, problem: Problem, back: string) {
  const status = problem.status === 404 ? 404 : problem.status === 400 ? 400 : 500;
  const title = problem.status === 404 ? 'Not found' : problem.title;
  return render(
    c,
    <Layout title={title} section={section} ctx={c.get('page')}>
      <div class="card" role="alert">
        <p>{problem.detail}</p>
        <p>
          <a href={back}>Back to the list</a>
        </p>
      </div>
    </Layout>,
    status,
  );
}
