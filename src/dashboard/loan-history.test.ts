import { describe, expect, it } from 'vitest';
import { timeline } from './loan-history.js';

describe('loan timeline', () => {
  it('marks the path done up to the current state and the rest to do', () => {
    const steps = timeline('awaiting_signatures', {
      processing: 't1',
      contract_generated: 't2',
      awaiting_signatures: 't3',
    });
    expect(steps.map((s) => `${s.state}:${s.mark}`)).toEqual([
      'processing:done',
      'contract_generated:done',
      'awaiting_signatures:current',
      'signed:todo',
      'disbursing:todo',
      'active:todo',
      'finished:todo',
    ]);
    expect(steps[2]?.at).toBe('t3');
  });

  it('ends a cancelled loan with the cancellation, keeping only the states it went through', () => {
    const steps = timeline('cancelled', { processing: 't1', contract_generated: 't2', cancelled: 't3' });
    expect(steps.map((s) => `${s.state}:${s.mark}`)).toEqual([
      'processing:done',
      'contract_generated:done',
      'cancelled:bad',
    ]);
  });

  it('shows a finished loan with every step done', () => {
    expect(timeline('finished', {}).every((s) => s.mark === 'done')).toBe(true);
  });
});
