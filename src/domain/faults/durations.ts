/** Milliseconds per unit of the short durations faults take ("250ms", "2s", "10m", "1h"). */
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * A duration such as "250ms", "2s", "10m", "1h" or "1d" in milliseconds; undefined when the text
 * is not one. Decimals are refused so a rule always names a whole number of its unit.
 */
export function parseFaultDuration(text: string): number | undefined {
  const match = /^(\d{1,10})(ms|s|m|h|d)$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** The largest unit that writes `ms` exactly ("1500ms", "2s", "10m"). */
export function formatFaultDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    if (ms >= UNIT_MS[unit] && ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${ms}ms`;
}
