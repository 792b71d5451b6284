import { decodeAccessToken, type TokenSubject } from '../domain/access-tokens.js';
import type { Store } from '../store/store.js';

/**
 * Verified access tokens: token text → who it speaks for (partner, credential, `exp`), so a
 * repeated token costs one map lookup instead of an HMAC and a JSON parse.
 *
 * What the cache does NOT decide, on purpose: expiry (checked against the partner clock on every
 * request, since that clock can jump), and whether the partner still exists (checked on every
 * request: a deleted partner's tokens stop at once). A revoked credential's tokens stay valid
 * until they expire (DESIGN, wave 3), so revocation needs no eviction. A new signing key (a
 * restored data file or database) empties the cache. Bound: `limit` entries (10,000 by default);
 * when full it is emptied and refills from the next requests (a token then costs one
 * verification again).
 */
export class TokenCache {
  private readonly subjects = new Map<string, TokenSubject>();
  private keyText = '';
  private key: Buffer = Buffer.alloc(0);
  // The last token answered and its subject: a client repeats its token, and comparing two equal
  // strings costs a third of hashing a ~200-character one for the map (the header is a fresh
  // string on every request, so its hash is never cached).
  private lastToken = '';
  private lastSubject: TokenSubject | undefined;
  /** Signature verifications done (not answered from the cache): read by the CI guard test. */
  verifications = 0;

  constructor(
    private readonly store: Store,
    private readonly limit = 10_000,
  ) {}

  /** A cached subject, or undefined (never verified, or the signing key changed since). */
  cached(token: string): TokenSubject | undefined {
    if (this.keyText !== this.store.meta.signing_key) return undefined;
    if (token === this.lastToken) return this.lastSubject;
    const subject = this.subjects.get(token);
    if (subject) {
      this.lastToken = token;
      this.lastSubject = subject;
    }
    return subject;
  }

  /** Verifies a token (throws the 401 problem of `decodeAccessToken`) and keeps its subject. */
  verify(token: string): TokenSubject {
    const hit = this.cached(token);
    if (hit) return hit;
    if (this.keyText !== this.store.meta.signing_key) {
      this.forget();
      this.keyText = this.store.meta.signing_key;
      this.key = Buffer.from(this.keyText, 'base64url');
    }
    this.verifications += 1;
    const subject = decodeAccessToken(token, this.key);
    if (this.subjects.size >= this.limit) this.forget();
    this.subjects.set(token, subject);
    return subject;
  }

  private forget(): void {
    this.subjects.clear();
    this.lastToken = '';
    this.lastSubject = undefined;
  }

  get size(): number {
    return this.subjects.size;
  }
}

const caches = new WeakMap<Store, TokenCache>();

/** The one token cache of a store, shared by every app over it (src/http/pipeline/admission.ts). */
export function tokenCache(store: Store): TokenCache {
  let cache = caches.get(store);
  if (!cache) {
    cache = new TokenCache(store);
    caches.set(store, cache);
  }
  return cache;
}
