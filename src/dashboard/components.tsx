/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import { brl, relative, utc, words } from './format.js';

/** One colour per meaning, the same on every page: done, moving, waiting on someone, bad, over. */
const TONE: Record<string, string> = {
  active: 'green',
  approved: 'green',
  paid: 'green',
  succeeded: 'green',
  passed: 'green',
  available: 'green',
  finished: 'violet',
  accepted: 'violet',
  processing: 'blue',
  contract_generated: 'blue',
  signed: 'blue',
  disbursing: 'blue',
  submitted: 'blue',
  under_review: 'blue',
  sending: 'blue',
  queued: 'blue',
  running: 'blue',
  pending: 'grey',
  awaiting_signatures: 'amber',
  pending_kyc: 'amber',
  pending_resubmission: 'amber',
  pending_correction: 'amber',
  partially_paid: 'amber',
  overdue: 'red',
  failed: 'red',
  error: 'red',
  rejected: 'red',
  cancelled: 'grey',
  expired: 'grey',
  skipped: 'grey',
  disabled: 'grey',
  revoked: 'grey',
};

export function toneOf(status: string): string {
  return TONE[status] ?? 'grey';
}

export const Badge = ({ status }: { status: string }) => (
  <span class={`badge b-${toneOf(status)}`} data-status={status}>
    {words(status)}
  </span>
);

export const Money = ({ value }: { value: string | null | undefined }) => <span>{brl(value)}</span>;

/** A partner-clock time, with how long ago that is on the same clock. */
export const When = ({ iso, nowMs }: { iso: string | null | undefined; nowMs: number }) =>
  iso ? (
    <time datetime={iso} title={iso}>
      {utc(iso)} <span class="muted">{relative(iso, nowMs)}</span>
    </time>
  ) : (
    <span class="muted">—</span>
  );

/** What an empty list means and what to do next. */
export const Empty = ({ title, children }: { title: string; children?: Child }) => (
  <div class="empty" role="status">
    <strong>{title}</strong>
    <div>{children}</div>
  </div>
);

export const Csrf = ({ token }: { token: string }) => <input type="hidden" name="_csrf" value={token} />;

/** A form with one button that posts to a dashboard action (works without JavaScript). */
export const Action = ({
  action,
  label,
  csrf,
  tone,
  children,
}: {
  action: string;
  label: string;
  csrf: string;
  tone?: 'primary' | 'danger';
  children?: Child;
}) => (
  <form class="inline" method="post" action={action}>
    <Csrf token={csrf} />
    {children}
    <button type="submit" class={tone}>
      {label}
    </button>
  </form>
);

/** "Next page" by cursor; the first page link when not on it. */
export const Pager = ({
  base,
  params,
  next,
  first,
}: {
  base: string;
  params: Record<string, string | undefined>;
  next: string | undefined;
  first: boolean;
}) => {
  const link = (extra: Record<string, string>) => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...params, ...extra })) if (v) search.set(k, v);
    const qs = search.toString();
    return qs ? `${base}?${qs}` : base;
  };
  if (!next && first) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {first ? null : <a href={link({})}>First page</a>}
      {next ? <a href={link({ starting_after: next })}>Next page</a> : null}
    </nav>
  );
};

export const Json = ({ value }: { value: unknown }) => <pre>{JSON.stringify(value, null, 2)}</pre>;
