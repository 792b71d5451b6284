import { UsageError } from './context.js';

/** The fields `--set` may change, each with how its value is checked and written. */
export const OVERRIDABLE = {
  amount: (v: string) => {
    if (!/^\d+(\.\d{1,2})?$/.test(v)) throw new Error('an amount like 5000 or 5000.00');
    return Number(v).toFixed(2);
  },
  installments: (v: string) => {
    if (!/^\d{1,3}$/.test(v) || Number(v) < 1) throw new Error('a whole number of installments like 12');
    return Number(v);
  },
  name: (v: string) => v,
  email: (v: string) => v,
  phone: (v: string) => v,
  external_id: (v: string) => v,
} as const;

export type Overrides = { [K in keyof typeof OVERRIDABLE]?: ReturnType<(typeof OVERRIDABLE)[K]> };

/** `--set amount=5000 --set installments=6` → checked overrides (a bad one is a usage error). */
export function parseOverrides(pairs: string[]): Overrides {
  const overrides: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const field = pair.slice(0, eq);
    if (eq <= 0) throw new UsageError(`--set takes field=value, got "${pair}"`);
    if (!Object.hasOwn(OVERRIDABLE, field)) {
      throw new UsageError(`--set ${field}: unknown field. Known: ${Object.keys(OVERRIDABLE).join(', ')}`);
    }
    try {
      overrides[field] = OVERRIDABLE[field as keyof typeof OVERRIDABLE](pair.slice(eq + 1));
    } catch (error) {
      throw new UsageError(
        `--set ${field}: expected ${(error as Error).message}, got "${pair.slice(eq + 1)}"`,
      );
    }
  }
  return overrides as Overrides;
}
