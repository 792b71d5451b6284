import { escapeHtml } from './html.js';

/**
 * How the hosted pages (contract, biometric capture) write numbers, dates and times: one
 * Brazilian format throughout (R$ 5.000,00, 1,79%, 15/12/2026), and every time labelled with the
 * clock it is on — the partner clock can be days ahead of, or frozen behind, the real one.
 */

/** 1234567.8 → "1.234.567,8": thousands with dots, decimals after a comma. */
function decimalBr(value: string): string {
  const negative = value.startsWith('-');
  const [units = '0', decimals] = value.replace(/^-/, '').split('.');
  const grouped = units.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${negative ? '-' : ''}${grouped}${decimals === undefined ? '' : `,${decimals}`}`;
}

/** "10000.00" → "R$ 10.000,00". */
export function brl(value: string): string {
  return `R$ ${decimalBr(value)}`;
}

/** "1.79" → "1,79%". */
export function percentBr(value: string): string {
  return `${decimalBr(value)}%`;
}

/** "2026-12-15" or a date-time → "15/12/2026" (the UTC calendar date). */
export function dateBr(iso: string): string {
  const [year, month, day] = iso.slice(0, 10).split('-');
  return `${day}/${month}/${year}`;
}

/** Epoch milliseconds → "15/12/2026 14:05 UTC". */
export function dateTimeBr(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${dateBr(iso)} ${iso.slice(11, 16)} UTC`;
}

/** The tone of a status badge: failure states must not look like progress. */
export type Tone = 'ok' | 'wait' | 'fail' | 'expired';

export function badge(text: string, tone: Tone, id?: string): string {
  return `<span class="badge ${tone}"${id ? ` id="${escapeHtml(id)}"` : ''}>${escapeHtml(text)}</span>`;
}

/** The page's clock line: the partner clock reading (and whether frozen) with the real time beside. */
export function clockLine(partner: { nowMs: number; frozen: boolean }, realNowMs: number): string {
  return `<p class="clock" id="clock">Times on this page are on the sandbox's partner clock: <strong>${dateTimeBr(partner.nowMs)}</strong>${partner.frozen ? ' (frozen)' : ''} · real time ${dateTimeBr(realNowMs)}</p>`;
}
