/** What the send queue needs to know of an attempt to place it. */
export interface QueuedSend {
  partnerId: string;
  endpointId: string;
  /**
   * Position in the endpoint's order (the event's log sequence), or null to go last: attempts
   * with an order are sent lowest first, so a batch that fell due together leaves in log order.
   */
  order: number | null;
}

export interface SendLimits {
  /** Attempts in flight at once, all partners together. */
  total: number;
  /** Attempts one partner may have in flight at once. */
  perPartner: number;
}

interface Lane<T> {
  key: string;
  partnerId: string;
  items: T[];
  busy: boolean;
}

/**
 * The sending slots and who may take one. Each endpoint is a lane that sends one attempt at a time
 * (so a receiver sees its events in order, and a dead receiver holds exactly one slot), a partner
 * holds at most `perPartner` slots, and all together at most `total`. Lanes with work take turns
 * round robin, so one busy endpoint or partner cannot starve the others.
 */
export class SendQueue<T extends QueuedSend> {
  private readonly lanes = new Map<string, Lane<T>>();
  /** Lanes with work and nothing in flight, in the order they got ready. */
  private ready: Lane<T>[] = [];
  private readonly perPartner = new Map<string, number>();
  private inFlight = 0;
  private queued = 0;

  constructor(private readonly limits: SendLimits) {}

  /** Attempts waiting for a slot. */
  get waiting(): number {
    return this.queued;
  }

  /** Attempts holding a slot. */
  get active(): number {
    return this.inFlight;
  }

  push(item: T): void {
    const key = `${item.partnerId}|${item.endpointId}`;
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { key, partnerId: item.partnerId, items: [], busy: false };
      this.lanes.set(key, lane);
    }
    const items = lane.items;
    let at = items.length;
    if (item.order !== null) {
      // Usually appends; an older event (a retry, a redelivery) moves ahead of newer ones.
      while (at > 0) {
        const before = (items[at - 1] as T).order;
        if (before === null || before <= item.order) break;
        at--;
      }
    }
    items.splice(at, 0, item);
    this.queued++;
    if (!lane.busy && items.length === 1) this.ready.push(lane);
  }

  /** The next attempt allowed to start now (its slot is taken), or undefined. */
  take(): T | undefined {
    if (this.inFlight >= this.limits.total) return undefined;
    for (let i = 0; i < this.ready.length; i++) {
      const lane = this.ready[i] as Lane<T>;
      const used = this.perPartner.get(lane.partnerId) ?? 0;
      if (used >= this.limits.perPartner) continue;
      this.ready.splice(i, 1);
      const item = lane.items.shift() as T;
      lane.busy = true;
      this.perPartner.set(lane.partnerId, used + 1);
      this.inFlight++;
      this.queued--;
      return item;
    }
    return undefined;
  }

  /** The attempt that held a slot is over: its endpoint and partner may send again. */
  done(item: T): void {
    const lane = this.lanes.get(`${item.partnerId}|${item.endpointId}`);
    if (!lane?.busy) return;
    lane.busy = false;
    this.inFlight--;
    const used = (this.perPartner.get(lane.partnerId) ?? 1) - 1;
    if (used > 0) this.perPartner.set(lane.partnerId, used);
    else this.perPartner.delete(lane.partnerId);
    if (lane.items.length > 0) this.ready.push(lane);
    else this.lanes.delete(lane.key);
  }
}
