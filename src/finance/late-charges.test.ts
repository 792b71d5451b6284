import { describe, expect, it } from 'vitest';
import { lateCharges } from './late-charges.js';

describe('lateCharges', () => {
  it('is zero while the installment is not overdue', () => {
    expect(lateCharges('945.60', 0)).toEqual({ fine: '0.00', interest: '0.00', total: '0.00' });
  });

  it('charges a 2 % fine once plus 1 % a month pro rata die', () => {
    // fine 18.912 -> 18.91; interest 945.60 * 1 % / 30 = 0.3152 -> 0.32
    expect(lateCharges('945.60', 1)).toEqual({ fine: '18.91', interest: '0.32', total: '19.23' });
    // interest 945.60 * 1 % * 10 / 30 = 3.152 -> 3.15
    expect(lateCharges('945.60', 10)).toEqual({ fine: '18.91', interest: '3.15', total: '22.06' });
    // a full 30-day month is exactly 1 %
    expect(lateCharges('1000.00', 30)).toEqual({ fine: '20.00', interest: '10.00', total: '30.00' });
    // 45 days: 1.5 %
    expect(lateCharges('1000.00', 45)).toEqual({ fine: '20.00', interest: '15.00', total: '35.00' });
  });

  it('rounds each part half up before adding', () => {
    // fine 0.25 * 2 % = 0.005 -> 0.01; interest 0.25 * 1 % * 60 / 30 = 0.005 -> 0.01
    expect(lateCharges('0.25', 60)).toEqual({ fine: '0.01', interest: '0.01', total: '0.02' });
  });

  it('is zero on a fully paid amount', () => {
    expect(lateCharges('0.00', 12)).toEqual({ fine: '0.00', interest: '0.00', total: '0.00' });
  });

  it('refuses negative or fractional days and negative amounts', () => {
    expect(() => lateCharges('10.00', -1)).toThrow(/0 or more/);
    expect(() => lateCharges('10.00', 1.5)).toThrow(/whole number/);
    expect(() => lateCharges('-10.00', 3)).toThrow(/not be negative/);
  });
});
