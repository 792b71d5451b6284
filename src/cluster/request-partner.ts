import type pg from 'pg';
import { TOKEN_PREFIX } from '../domain/access-tokens.js';
import { HOSTED_CONTRACTS_PATH } from '../domain/credit/contract-ids.js';
import { HOSTED_BIOMETRICS_PATH, hashToken } from '../domain/customers/biometrics.js';
import type { Store } from '../store/store.js';
import { sessionPartner } from './dashboard-partner.js';

/** How a request names its partner, before any authentication. */
export interface RequestFacts {
  path: string;
  authorization: string | undefined;
  /** The Cookie header (dashboard pages name their partner in the session cookie). */
  cookie?: string | undefined;
}

const TOKEN_PATH = '/v3/auth/token';
const DASHBOARD_PATH = '/dashboard';
const CACHE_LIMIT = 10_000;

/**
 * Finds which partner a request concerns, without verifying anything (the owner verifies): the
 * `partner` claim of a bearer token, the partner of the client id on the token endpoint, or of
 * the loan or capture session a hosted page names. Undefined when the request names no partner
 * (docs, health, a malformed credential): such a request is handled where it lands.
 */
export class RequestPartners {
  private readonly byToken = new Map<string, string | undefined>();
  private readonly byClient = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly pool: pg.Pool,
  ) {}

  /** The answer now when memory knows it, else a promise (one indexed database lookup). */
  of(facts: RequestFacts): string | undefined | Promise<string | undefined> {
    const { path, authorization } = facts;
    if (path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`)) return sessionPartner(facts.cookie);
    if (path.startsWith('/v3/')) {
      if (path === TOKEN_PATH) return this.ofClient(basicClientId(authorization));
      return this.ofBearer(authorization);
    }
    if (path.startsWith(`${HOSTED_CONTRACTS_PATH}/`)) {
      const loanId = path.slice(HOSTED_CONTRACTS_PATH.length + 1).split('/')[0] ?? '';
      const loan = this.store.loans.get(loanId);
      return loan ? loan.partner_id : this.lookup('SELECT partner_id FROM loans WHERE id = $1', loanId);
    }
    if (path.startsWith(`${HOSTED_BIOMETRICS_PATH}/`)) {
      const token = path.slice(HOSTED_BIOMETRICS_PATH.length + 1).split('/')[0] ?? '';
      const hash = hashToken(token);
      const session = this.store.biometricsSessionIdx.byTokenHash.get(hash);
      return session
        ? session.partner_id
        : this.lookup("SELECT partner_id FROM biometrics_sessions WHERE record->>'token_hash' = $1", hash);
    }
    return undefined;
  }

  private ofBearer(authorization: string | undefined): string | undefined {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    const token = match?.[1];
    if (!token?.startsWith(TOKEN_PREFIX)) return undefined;
    if (this.byToken.has(token)) return this.byToken.get(token);
    let partner: string | undefined;
    try {
      const payload = token.slice(TOKEN_PREFIX.length).split('.')[1] ?? '';
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { partner?: unknown };
      partner = typeof claims.partner === 'string' ? claims.partner : undefined;
    } catch {
      partner = undefined;
    }
    if (this.byToken.size >= CACHE_LIMIT) this.byToken.clear();
    this.byToken.set(token, partner);
    return partner;
  }

  /** The partner of a client id (the dashboard's sign-in form names one). */
  ofClient(clientId: string | undefined): string | undefined | Promise<string | undefined> {
    if (!clientId) return undefined;
    const known = this.store.credentials.get(clientId)?.partner_id ?? this.byClient.get(clientId);
    if (known) return known;
    // A gone partner's client id leads to its tombstones (which say why it is gone).
    return this.lookup(
      `SELECT partner_id FROM credentials WHERE id = $1
       UNION ALL SELECT partner_id FROM partner_tombstones WHERE id = $1 LIMIT 1`,
      clientId,
    ).then((partner) => {
      // A credential never moves to another partner, so the answer can be kept.
      if (partner) {
        if (this.byClient.size >= CACHE_LIMIT) this.byClient.clear();
        this.byClient.set(clientId, partner);
      }
      return partner;
    });
  }

  private async lookup(sql: string, value: string): Promise<string | undefined> {
    // PostgreSQL refuses NUL in text (a forged client id may hold one): no such partner.
    if (value.includes('\u0000')) return undefined;
    const result = await this.pool.query<{ partner_id: string }>(sql, [value]);
    return result.rows[0]?.partner_id;
  }
}

function basicClientId(authorization: string | undefined): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}
