import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { AppDeps } from '../http/deps.js';
import type { ApiResult, AppFetch, DashboardApi } from './api-client.js';
import type { EventBus } from './event-bus.js';
import type { PageContext } from './layout.js';
import { FLASH_COOKIE } from './session.js';

/** Typed variables of a signed-in dashboard request. */
export interface DashboardEnv {
  Variables: {
    api: DashboardApi;
    page: PageContext;
    /** The server's public URL is https (`--public-url https://…`): cookies are `Secure`. */
    publicHttps: boolean;
  };
}

export type DashboardContext = Context<DashboardEnv>;

/** What every page module gets: the app's deps and its in-process fetch. */
export interface DashboardDeps {
  deps: AppDeps;
  fetch: AppFetch;
  /** The partner's events as they happen (live pages). */
  bus: EventBus;
}

const COOKIE_BASE = { path: '/dashboard', httpOnly: true, sameSite: 'Strict' } as const;

/**
 * Cookie options the dashboard uses everywhere: HttpOnly, SameSite=Strict, only under /dashboard,
 * and `Secure` whenever the dashboard is reached over https: the public URL is https, the request
 * was, or a proxy in front says so (`X-Forwarded-Proto: https`; `Secure` only narrows where the
 * browser sends the cookie, so trusting the header costs nothing).
 */
export function cookieOptions(c: Context, maxAgeSeconds?: number) {
  const secure =
    (c as DashboardContext).get('publicHttps') === true ||
    new URL(c.req.url).protocol === 'https:' ||
    c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https';
  return { ...COOKIE_BASE, secure, ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }) };
}

/** Renders a page (a JSX element) as a complete HTML document. */
export async function render(
  c: Context,
  page: HtmlEscapedString | Promise<HtmlEscapedString>,
  status: 200 | 400 | 401 | 403 | 404 | 409 | 422 | 500 = 200,
) {
  return c.html(`<!doctype html>${await page}`, status);
}

/** Remembers a one-time message for the next page, then redirects there (post/redirect/get). */
export function redirectWith(
  c: Context,
  to: string,
  flash?: { kind: 'ok' | 'error'; text: string },
): Response {
  if (flash) {
    const value = Buffer.from(JSON.stringify(flash)).toString('base64url');
    setCookie(c, FLASH_COOKIE, value, cookieOptions(c, 60));
  }
  return c.redirect(to, 303);
}

/** The message left by the previous action, read once. */
export function takeFlash(c: Context): PageContext['flash'] {
  const value = getCookie(c, FLASH_COOKIE);
  if (!value) return undefined;
  deleteCookie(c, FLASH_COOKIE, { path: '/dashboard' });
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown;
    if (parsed !== null && typeof parsed === 'object') {
      const { kind, text } = parsed as Record<string, unknown>;
      if ((kind === 'ok' || kind === 'error') && typeof text === 'string')
        return { kind, text: text.slice(0, 500) };
    }
  } catch {
    // a garbled flash is dropped
  }
  return undefined;
}

/** Redirects after an action: the API's answer becomes the flash message (its problem detail on failure). */
export function afterAction<T>(c: Context, result: ApiResult<T>, to: string, okText: string): Response {
  if (result.ok) return redirectWith(c, to, { kind: 'ok', text: okText });
  return redirectWith(c, to, { kind: 'error', text: `${result.problem.title}: ${result.problem.detail}` });
}

/** A form field as text ('' when absent or a file). */
export function field(form: Record<string, unknown>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value.trim() : '';
}
