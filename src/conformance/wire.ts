// The wire as the checks see it: answers, request options, a partner to call as. Types only, so
// that every file of the kit can share them without an import circle.

/** A request as the report shows it: redacted (no tokens, secrets or passwords). */
export interface ReportedRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  status?: number;
}

/** An answer as the checks read it. Header names are lower case. */
export interface Answer {
  method: string;
  /** The path below the target's base URL, with its query (`/customers?limit=1`). */
  path: string;
  /** The path with ids replaced by `{id}`: what `--compare` pairs answers by. */
  label: string;
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed JSON body, or undefined when there was none or it was not JSON. */
  body: unknown;
  request: ReportedRequest;
}

export interface RequestOptions {
  /** A JSON body, or a FormData (multipart). */
  body?: unknown;
  headers?: Record<string, string>;
  /** `Authorization` as given; `null` sends none. Default: the partner's bearer token. */
  authorization?: string | null;
  /** Query parameters (undefined values left out). */
  query?: Record<string, string | number | undefined>;
  /** A raw body sent as is (malformed JSON, wrong content types). */
  raw?: string;
  /** Answer a 429 as it comes instead of waiting out its Retry-After (the rate-limit check). */
  noRetry?: boolean;
}

/** Where exchanges go: the run's recorder, keyed by the check (or fixture) that made them. */
export interface ExchangeSink {
  record(answer: Answer): void;
}

/** A partner the kit acts as: its credential and a token fetched (and renewed) on demand. */
export interface PartnerApi {
  readonly clientId: string;
  /** Kept in memory only: never recorded, printed or reported. */
  readonly clientSecret: string;
  /** A fresh access token (POST /auth/token with Basic credentials). */
  token(): Promise<string>;
  /** A request with the partner's bearer token; on a 401 the token is renewed once and resent. */
  call(method: string, path: string, options?: RequestOptions): Promise<Answer>;
  /** The same request without the kit's token handling (auth checks send their own). */
  raw(method: string, path: string, options?: RequestOptions): Promise<Answer>;
}
