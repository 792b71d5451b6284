// The `serve` command's value parsers and its usage failure (exit 2).
/** An RFC 3339 date-time with a zone (`Z` or `±hh:mm`); a bare date or local time is ambiguous. */
export function parseStartTime(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `65536`, `64kb`, `16mb`, `1gb` (powers of 1024) in bytes; null when unreadable. */
export function parseSize(text: string): number | null {
  const match = /^(\d+)\s*(k|m|g)?b?$/i.exec(text.trim());
  if (!match) return null;
  const unit = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(match[2] ?? '').toLowerCase()] ?? 1;
  return Number(match[1]) * unit;
}

export function boundedInteger(
  value: string | undefined,
  flag: string,
  bounds: { min: number; max: number },
): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < bounds.min || n > bounds.max) {
    fail(`${flag} must be an integer of milliseconds ${bounds.min}..${bounds.max}, got "${value}"`);
  }
  return n;
}

export function positiveInteger(value: string | undefined, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) fail(`${flag} must be a positive integer, got "${value}"`);
  return n;
}

export function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

export function fail(message: string): never {
  console.error(`credit-sandbox: ${message}`);
  process.exit(2);
}
