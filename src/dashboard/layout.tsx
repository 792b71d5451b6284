/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import { Csrf } from './components.js';
import { clockOffset, utc } from './format.js';
import { STYLES } from './styles.js';

/** What every signed-in page knows: who is signed in, the clocks, the form token, a flash message. */
export interface PageContext {
  partnerId: string;
  partnerName: string;
  clientId: string;
  csrf: string;
  /** Partner clock reading and real wall-clock time, milliseconds. */
  nowMs: number;
  realNowMs: number;
  frozen: boolean;
  flash?: { kind: 'ok' | 'error'; text: string } | undefined;
}

export const NAV = [
  ['overview', 'Overview', '/dashboard'],
  ['customers', 'Customers', '/dashboard/customers'],
  ['loans', 'Loans', '/dashboard/loans'],
  ['events', 'Events', '/dashboard/events'],
  ['webhooks', 'Webhooks', '/dashboard/webhooks'],
  ['requests', 'Requests', '/dashboard/requests'],
  ['faults', 'Faults', '/dashboard/faults'],
  ['scenarios', 'Scenarios', '/dashboard/scenarios'],
  ['snapshots', 'Snapshots', '/dashboard/snapshots'],
] as const;

export type Section = (typeof NAV)[number][0];

const Head = ({ title, live, refresh }: { title: string; live?: boolean; refresh?: number }) => (
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>{`${title} · credit-sandbox dashboard`}</title>
    {/* No favicon request (it would 404). */}
    <link rel="icon" href="data:," />
    <style>{STYLES}</style>
    {live ? <script src="/dashboard/assets/htmx.min.js" defer /> : null}
    {live ? <script src="/dashboard/assets/sse.js" defer /> : null}
    {refresh ? (
      <noscript>
        <meta http-equiv="refresh" content={String(refresh)} />
      </noscript>
    ) : null}
  </head>
);

/** The page frame: navigation, the partner clock beside real time, a flash message, the content. */
export const Layout = ({
  title,
  section,
  ctx,
  live,
  refresh,
  children,
}: {
  title: string;
  section: Section;
  ctx: PageContext;
  live?: boolean;
  refresh?: number;
  children: Child;
}) => (
  <html lang="en">
    <Head title={title} live={live} refresh={refresh} />
    <body>
      <header class="top">
        <a class="brand" href="/dashboard">
          credit-sandbox
        </a>
        <nav aria-label="Sections">
          {NAV.map(([key, label, href]) => (
            <a href={href} aria-current={key === section ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <form class="search" method="get" action="/dashboard/search">
          <input
            name="q"
            type="search"
            placeholder="Search: a name, ln_…, evt_…"
            aria-label="Search a name or an id"
            size={28}
          />
        </form>
        <div class="who">
          <span title={ctx.partnerId}>
            {ctx.partnerName} · <code>{ctx.clientId}</code>
          </span>
          <form method="post" action="/dashboard/sign-out">
            <Csrf token={ctx.csrf} />
            <button type="submit">Sign out</button>
          </form>
        </div>
      </header>
      <div class="clockbar" id="clockbar">
        <span>
          Partner clock <strong id="partner-now">{utc(new Date(ctx.nowMs).toISOString())}</strong>{' '}
          {ctx.frozen ? '(frozen)' : '(running)'}
        </span>
        <span>
          Real time {utc(new Date(ctx.realNowMs).toISOString())} · {clockOffset(ctx.nowMs, ctx.realNowMs)}
        </span>
      </div>
      <main>
        {ctx.flash ? (
          <div class={`flash ${ctx.flash.kind}`} role={ctx.flash.kind === 'error' ? 'alert' : 'status'}>
            {ctx.flash.text}
          </div>
        ) : null}
        <h1>{title}</h1>
        {children}
      </main>
    </body>
  </html>
);

/** A page outside the session (sign-in). */
export const Bare = ({ title, children }: { title: string; children: Child }) => (
  <html lang="en">
    <Head title={title} />
    <body>
      <main>{children}</main>
    </body>
  </html>
);
