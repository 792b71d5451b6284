/** @jsxImportSource hono/jsx */
import { Bare } from '../layout.js';

/** The sign-in form: a client id and secret (the secret is only forwarded to POST /v3/auth/token). */
export const SignInPage = ({
  token,
  error,
  clientId,
}: {
  token: string;
  error?: string;
  clientId?: string;
}) => (
  <Bare title="Sign in">
    <div class="signin card">
      <h1>credit-sandbox dashboard</h1>
      <p class="muted">
        Sign in with a partner credential. The default partner's is printed when the sandbox starts; a new
        partner comes from <code>POST /v3/sandbox/partners</code>.
      </p>
      {error ? (
        <div class="flash error" role="alert">
          {error}
        </div>
      ) : null}
      <form method="post" action="/dashboard/sign-in">
        <input type="hidden" name="_csrf" value={token} />
        <label>
          Client ID
          <input name="client_id" autocomplete="username" required value={clientId ?? ''} />
        </label>
        <label>
          Client secret
          <input name="client_secret" type="password" autocomplete="current-password" required />
        </label>
        <button type="submit" class="primary">
          Sign in
        </button>
      </form>
    </div>
  </Bare>
);
