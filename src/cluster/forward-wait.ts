// The `--forward-wait` values on their own, for the CLI's option help: the middleware that uses
// them loads undici (forwarding), which a `credit-sandbox --help` need not.

/** How long a request waits for a dead owner's lease to expire before answering 503 (default). */
export const DEFAULT_FORWARD_WAIT_MS = 20_000;
/** Bounds of `--forward-wait`: at most what a client or load balancer would wait for an answer. */
export const FORWARD_WAIT_MS_BOUNDS = { min: 1_000, max: 120_000 } as const;
