import type { DomainContext } from '../../engine/context.js';
import type { IsoDate } from '../../finance/index.js';

/**
 * A domain context plus the sandbox's public URL, which the loan views need for `signing_url`.
 * Read when the context is built, so a server that learns its port late still gets it right.
 */
export interface CreditContext extends DomainContext {
  publicUrl: string;
}

export function creditContext(ctx: DomainContext, publicUrl: string): CreditContext {
  return { ...ctx, publicUrl };
}

/** The partner-clock date (UTC) of `now`: simulation dates, payment dates, overdue counting. */
export function clockDate(ctx: Pick<DomainContext, 'clock'>): IsoDate {
  return ctx.clock.iso().slice(0, 10);
}

/** 00:00 UTC of a date, in epoch milliseconds (when date-based jobs fall due). */
export function startOfDayMs(date: IsoDate): number {
  return Date.parse(`${date}T00:00:00.000Z`);
}
