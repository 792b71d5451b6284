import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Context, Hono } from 'hono';
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
<script>window.ui = SwaggerUIBundle({ url: '/docs/openapi.json', dom_id: '#ui', deepLinking: true, persistAuthorization: true });</script>
</body></html>`;

/** What the docs routes need from the app: the document Swagger UI reads, and compression. */
export interface DocsOptions {
  /** The OpenAPI 3.0 rendition of the API (its JSON text, kept by the caller). */
  document(): string;
  /** A response compressed as the request path compresses its answers. */
  respond(c: Context, status: number, headers: Record<string, string>, body: string | Uint8Array): Response;
}

/**
 * The API reference at /docs (Swagger UI served from the local package, so it works offline) and
 * one page per problem type at /problems/{code}, the URI every problem's `type` points to. Swagger
 * UI reads `/docs/openapi.json`, the OpenAPI 3.0 rendition of `/v3/openapi.json` (see
 * src/api/openapi/document.ts): it renders a 3.0 document several times faster. Its files and the
 * document go out compressed when the browser accepts it.
 */
export function docsRoutes(options: DocsOptions): Hono {
  const app = new Hono();
  const cache = new Map<string, Buffer>();

  app.get('/docs/openapi.json', (c) =>
    options.respond(c, 200, { 'content-type': 'application/json; charset=utf-8' }, options.document()),
  );
  // The page asks for the document only once its 1.7 MB script has run: the document is made
  // meanwhile, right after the page has gone out, instead of after that wait.
  const page = (c: Context) => {
    setImmediate(() => {
      try {
        options.document();
      } catch {
        // Made again (and its failure answered) when the page asks for it.
      }
    });
    return c.html(DOCS_HTML);
  };
  app.get('/docs', page);
  // Hono matches paths strictly; people type /docs/ as often as /docs.
  app.get('/docs/', page);
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
    return options.respond(
      c,
      200,
      { 'content-type': type, 'cache-control': 'public, max-age=86400' },
      content,
    );
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
