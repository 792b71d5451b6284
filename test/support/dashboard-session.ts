import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import type { TestSandbox } from './sandbox.js';

// The dashboard tests' browser moves, written once: sign in through the form, post a form.

/** Signs in through the form as a browser would; answers the session cookie and the CSRF token. */
export async function signIn(sb: TestSandbox): Promise<{ cookie: string; csrf: string }> {
  const form = await sb.app.request('/dashboard/sign-in');
  const nonce = (form.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const res = await sb.app.request('/dashboard/sign-in', {
    method: 'POST',
    headers: { cookie: nonce, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      _csrf: token,
      client_id: DEFAULT_CLIENT_ID,
      client_secret: DEFAULT_CLIENT_SECRET,
    }).toString(),
  });
  const cookie = (
    res.headers.getSetCookie().find((c) => c.startsWith('credit_sandbox_session=')) ?? ''
  ).split(';')[0] as string;
  const home = await sb.app.request('/dashboard', { headers: { cookie } });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await home.text())?.[1] ?? '';
  return { cookie, csrf };
}

/** Posts a dashboard form (an action) with the session cookie. */
export function post(sb: TestSandbox, path: string, cookie: string, fields: Record<string, string>) {
  return sb.app.request(path, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}
