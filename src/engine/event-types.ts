/** Every event the service emits, grouped by resource (the spec's pattern table). */
export const EVENT_TYPES = {
  customer: ['customer.created', 'customer.under_review', 'customer.kyc_updated', 'customer.active'],
  credit_offer: ['credit_offer.available', 'credit_offer.expired'],
  loan: [
    'loan.created',
    'loan.contract_generated',
    'loan.awaiting_signatures',
    'loan.signed',
    'loan.disbursing',
    'loan.active',
    'loan.payment_received',
    'loan.finished',
    'loan.cancelled',
    'loan.error',
  ],
} as const;

export type EventResource = keyof typeof EVENT_TYPES;
export type EventType = (typeof EVENT_TYPES)[EventResource][number];

export const ALL_EVENT_TYPES: readonly EventType[] = Object.values(EVENT_TYPES).flat();
/** Every pattern an endpoint or a filter may use: `*`, `<resource>.*`, or an exact event name. */
export const ALL_EVENT_PATTERNS: readonly string[] = [
  '*',
  ...Object.keys(EVENT_TYPES).map((r) => `${r}.*`),
  ...ALL_EVENT_TYPES,
];

const PATTERNS = new Set(ALL_EVENT_PATTERNS);

export function isEventPattern(pattern: string): boolean {
  return PATTERNS.has(pattern);
}

/** Whether `type` matches `pattern` (`*`, `<resource>.*` or exact). */
export function matchesPattern(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

/** An empty pattern list means every event. */
export function matchesAny(patterns: readonly string[], type: string): boolean {
  return patterns.length === 0 || patterns.some((p) => matchesPattern(p, type));
}

export function resourceOf(type: string): string {
  return type.slice(0, type.indexOf('.'));
}
