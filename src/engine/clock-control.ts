import { ApiError } from '../domain/errors.js';
import type { Store } from '../store/store.js';
import { clockReading, frozen, movedTo, resumed } from './clock.js';

/** The pieces clock control needs; `realNow` is the only reader of real time. */
export interface ClockControlDeps {
  store: Store;
  realNow: () => number;
}

export interface ClockView {
  now: string;
  frozen: boolean;
}

export function clockView(deps: ClockControlDeps, partnerId: string): ClockView {
  const partner = requirePartner(deps, partnerId);
  return {
    now: new Date(clockReading(partner.clock, deps.realNow())).toISOString(),
    frozen: partner.clock.frozen_at_ms !== null,
  };
}

export function freezeClock(deps: ClockControlDeps, partnerId: string): ClockView {
  const partner = requirePartner(deps, partnerId);
  deps.store.partners.replace({ ...partner, clock: frozen(partner.clock, deps.realNow()) });
  return clockView(deps, partnerId);
}

export function resumeClock(deps: ClockControlDeps, partnerId: string): ClockView {
  const partner = requirePartner(deps, partnerId);
  deps.store.partners.replace({ ...partner, clock: resumed(partner.clock, deps.realNow()) });
  return clockView(deps, partnerId);
}

/** Moves the partner clock forward to `targetMs`; refuses to go backwards (422). */
export function advanceClock(deps: ClockControlDeps, partnerId: string, targetMs: number): ClockView {
  const partner = requirePartner(deps, partnerId);
  const now = clockReading(partner.clock, deps.realNow());
  if (targetMs < now) {
    throw new ApiError(
      'clock_backwards',
      `Cannot move the clock back from ${new Date(now).toISOString()} to ${new Date(targetMs).toISOString()}. Clocks only move forward.`,
      { param: 'to' },
    );
  }
  deps.store.partners.replace({ ...partner, clock: movedTo(partner.clock, targetMs, deps.realNow()) });
  return clockView(deps, partnerId);
}

function requirePartner(deps: ClockControlDeps, partnerId: string) {
  const partner = deps.store.partners.get(partnerId);
  if (!partner) throw new Error(`unknown partner ${partnerId}`);
  return partner;
}
