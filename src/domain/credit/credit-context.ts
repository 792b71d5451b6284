import type { DomainContext } from '../../engine/context.js';
import { type IsoDate, localDate, startOfLocalDayMs } from '../../finance/index.js';

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

/**
 * The partner-clock date of `now` in São Paulo (days are Brazilian days): simulation dates,
 * payment dates, overdue counting, late charges, the calendar.
 */
export function clockDate(ctx: Pick<DomainContext, 'clock'>): IsoDate {
  return localDate(ctx.clock.nowMs());
}

/** 00:00 São Paulo time of a date, in epoch milliseconds (when date-based jobs fall due). */
export function startOfDayMs(date: IsoDate): number {
  return startOfLocalDayMs(date);
}
