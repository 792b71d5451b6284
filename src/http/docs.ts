import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { ERROR_CATALOG, type ErrorCode } from '../domain/errors.js';
import { escapeHtml, page } from './html.js';

// The build copies these files next to the compiled module (scripts/copy-build-assets.mjs), so
// the published package does not depend on swagger-ui-dist; src/ run from a checkout reads them
// from the swagger-ui-dist dev dependency.
const copied = fileURLToPath(new URL('./swagger-ui/', import.meta.url));
const swaggerDir = existsSync(copied)
  ? copied
  : dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

// docs/ sits two levels above both src/http and dist/http.
const GUIDES_DIR = new URL('../../docs/', import.meta.url);
const GUIDE_NAME = /^[a-z][a-z-]*\.md$/;

const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>credit-sandbox API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"><link rel="icon" href="/docs/assets/favicon-32x32.png"></head>
<body><div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/v3/openapi.json', dom_id: '#ui', deepLinking: true, persistAuthorization: true });</script>
</body></html>`;

/**
 * The API reference at /docs (Swagger UI served from the local package, so it works offline) and
 * one page per problem type at /problems/{code}, the URI every problem's `type` points to.
 */
export function docsRoutes(): Hono {
  const app = new Hono();
  const cache = new Map<string, Buffer>();

  app.get('/docs', (c) => c.html(DOCS_HTML));
  // Hono matches paths strictly; people type /docs/ as often as /docs.
  app.get('/docs/', (c) => c.html(DOCS_HTML));
  app.get('/guides/:file', async (c) => {
    const file = c.req.param('file');
    if (!GUIDE_NAME.test(file)) return c.notFound();
    try {
      const text = await readFile(new URL(file, GUIDES_DIR), 'utf8');
      return c.body(text, 200, { 'content-type': 'text/markdown; charset=utf-8' });
    } catch {
      return c.notFound();
    }
  });
  app.get('/docs/assets/:file', async (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    if (!type) return c.notFound();
    let content = cache.get(file);
    if (!content) {
      content = await readFile(join(swaggerDir, file));
      cache.set(file, content);
    }
    return c.body(new Uint8Array(content), 200, {
      'content-type': type,
      'cache-control': 'public, max-age=86400',
    });
  });

  app.get('/problems', (c) => c.html(problemIndex()));
  app.get('/problems/:code', (c) => {
    const code = c.req.param('code');
    if (!(code in ERROR_CATALOG)) return c.notFound();
    return c.html(problemPage(code as ErrorCode));
  });
  return app;
}

function problemPage(code: ErrorCode): string {
  const entry = ERROR_CATALOG[code];
  return page(
    entry.title,
    `<p><a href="/problems">All problem types</a></p>
<h1>${escapeHtml(entry.title)}</h1>
<p><span class="badge">HTTP ${entry.status}</span> <code>code: ${code}</code></p>
<p>${formatHelp(entry.help)}</p>`,
  );
}

function problemIndex(): string {
  const rows = Object.entries(ERROR_CATALOG)
    .map(
      ([code, e]) =>
        `<tr><td><a href="/problems/${code}"><code>${code}</code></a></td><td>${e.status}</td><td>${escapeHtml(e.title)}</td></tr>`,
    )
    .join('');
  return page(
    'Problem types',
    `<h1>Problem types</h1><p>Every error is <code>application/problem+json</code>; its <code>type</code> links here.</p><p>The status shown is each code's own. On the seven endpoints of the specification's status table a code whose status the endpoint's row lacks answers the nearest status the row has (a 4xx: 400, else 422, else 404; a 5xx: 500), keeping its code.</p><table><tr><th>code</th><th>status</th><th>title</th></tr>${rows}</table>`,
  );
}

/** Renders `backticked` spans as code. */
function formatHelp(help: string): string {
  return escapeHtml(help).replace(/`([^`]+)`/g, '<code>$1</code>');
}
