/**
 * How the dashboard writes values for people: money as Brazilians read it, times in UTC with the
 * partner clock's distance from real time. Pure functions (the callers pass the clocks' readings).
 */

/** "10000.00" -> "R$ 10.000,00"; negative amounts keep their sign in front. */
export function brl(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const negative = value.startsWith('-');
  const [units = '0', cents = ''] = (negative ? value.slice(1) : value).split('.');
  const grouped = units.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${negative ? '-' : ''}R$ ${grouped},${cents.padEnd(2, '0').slice(0, 2)}`;
}

/** "2026-03-01T12:00:00.000Z" -> "2026-03-01 12:00:00 UTC". */
export function utc(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

const UNITS: [number, string][] = [
  [86_400_000, 'd'],
  [3_600_000, 'h'],
  [60_000, 'min'],
  [1000, 's'],
];

/** A distance in time, coarse enough to read at a glance: "35 d", "2 h 5 min", "40 s". */
export function span(ms: number): string {
  let rest = Math.abs(ms);
  const parts: string[] = [];
  for (const [size, unit] of UNITS) {
    if (rest >= size && parts.length < 2) {
      const n = Math.floor(rest / size);
      parts.push(`${n} ${unit}`);
      rest -= n * size;
    } else if (parts.length > 0) {
      break;
    }
  }
  return parts.length > 0 ? parts.join(' ') : '0 s';
}

/** How far the partner clock is from real time: "35 d ahead of real time", "in step with real time". */
export function clockOffset(partnerMs: number, realMs: number): string {
  const delta = partnerMs - realMs;
  if (Math.abs(delta) < 1000) return 'in step with real time';
  return `${span(delta)} ${delta > 0 ? 'ahead of' : 'behind'} real time`;
}

/** "3 d ago" / "in 2 h", measured on the partner clock. */
export function relative(iso: string | null | undefined, nowMs: number): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const delta = nowMs - at;
  if (Math.abs(delta) < 1000) return 'now';
  return delta > 0 ? `${span(delta)} ago` : `in ${span(delta)}`;
}

/** "12345678909" -> "123.456.789-09"; anything else unchanged. */
export function cpf(value: string): string {
  return /^\d{11}$/.test(value) ? value.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4') : value;
}

/** A status key as words: "awaiting_signatures" -> "awaiting signatures". */
export function words(status: string): string {
  return status.replaceAll('_', ' ');
}
