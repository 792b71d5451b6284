import { describe, expect, it } from 'vitest';
import type { Engine } from '../engine/engine.js';
import type { EventRecord } from '../store/records.js';
import { EventBus } from './event-bus.js';

function fakeEngine() {
  const sinks: ((event: EventRecord) => void)[] = [];
  const engine = { onEvent: (sink: (event: EventRecord) => void) => sinks.push(sink) } as unknown as Engine;
  const emit = (partnerId: string, type: string) => {
    for (const sink of sinks)
      sink({ id: `evt_${type}`, seq: 1, partner_id: partnerId, type, timestamp: '', data: {} });
  };
  return { engine, emit };
}

describe('dashboard event bus', () => {
  it('tells each listener only its own partner events, until it stops listening', () => {
    const { engine, emit } = fakeEngine();
    const bus = new EventBus(engine);
    const seenA: string[] = [];
    const seenB: string[] = [];
    const stopA = bus.listen('ptn_a', (e) => seenA.push(e.type));
    bus.listen('ptn_b', (e) => seenB.push(e.type));
    emit('ptn_a', 'customer.created');
    emit('ptn_b', 'loan.created');
    stopA();
    emit('ptn_a', 'customer.active');
    expect(seenA).toEqual(['customer.created']);
    expect(seenB).toEqual(['loan.created']);
    expect(bus.count('ptn_a')).toBe(0);
    expect(bus.count('ptn_b')).toBe(1);
  });
});
