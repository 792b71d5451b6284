import { describe, expect, it } from 'vitest';
import { parseChaosOption } from './chaos-option.js';

describe('--chaos', () => {
  it('reads short and long names, and a bare reorder', () => {
    expect(parseChaosOption('duplicate=0.2, drop=0.1,delay=30s,reorder')).toEqual({
      duplicate_rate: 0.2,
      drop_rate: 0.1,
      max_delay: '30s',
      reorder: true,
    });
    expect(parseChaosOption('duplicate_rate=1,max_delay=1h,reorder=false')).toEqual({
      duplicate_rate: 1,
      max_delay: '1h',
      reorder: false,
    });
  });

  it('names what is wrong', () => {
    expect(() => parseChaosOption('dupe=0.2')).toThrow(/unknown --chaos setting "dupe"/);
    expect(() => parseChaosOption('drop=lots')).toThrow(/drop needs a number/);
    expect(() => parseChaosOption('delay')).toThrow(/delay needs a duration/);
  });
});
