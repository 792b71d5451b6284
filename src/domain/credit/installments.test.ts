import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, FinanceDecimal, lateCharges, toDecimal } from '../../finance/index.js';
import type { TransactionRecord } from '../../store/records.js';
import { applyPayment, installmentBalance, installmentView, markOverdue } from './installments.js';

const NOW = '2026-03-01T00:00:00.000Z';

function installment(overrides: Partial<TransactionRecord> = {}): TransactionRecord {
  return {
    id: 'tx_1',
    seq: 1,
    partner_id: 'ptn_1',
    loan_id: 'ln_1',
    installment_number: 1,
    due_date: '2026-02-15',
    amount_due: '945.60',
    principal_paid: '0.00',
    charges_paid: '0.00',
    fine: '0.00',
    interest_accrued: '0.00',
    charges_since: null,
    status: 'pending',
    paid_at: null,
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
  };
}

const pay = (tx: TransactionRecord, amount: string, today: string) =>
  applyPayment(tx, toDecimal(amount), today, `${today}T12:00:00.000Z`);

describe('installment ledger', () => {
  it('is pending with nothing owed but amount_due before it falls due', () => {
    const view = installmentView(installment(), '2026-02-15');
    expect(view).toMatchObject({
      status: 'pending',
      days_overdue: 0,
      amount_paid: '0.00',
      amount_outstanding: '945.60',
      late_charges: { fine: '0.00', interest: '0.00', total: '0.00' },
    });
  });

  it('becomes overdue with the 2 % fine fixed and interest accruing per day', () => {
    const tx = markOverdue(installment(), '2026-02-16T00:00:00.000Z');
    expect(tx.status).toBe('overdue');
    expect(tx.fine).toBe('18.91');
    for (const days of [1, 10, 30, 365, 400]) {
      const view = installmentView(tx, addDays('2026-02-15', days));
      expect(view.days_overdue).toBe(days);
      expect(view.late_charges).toEqual(lateCharges('945.60', days));
      const expected = toDecimal('945.60').plus(lateCharges('945.60', days).total);
      expect(view.amount_outstanding).toBe(expected.toFixed(2));
    }
  });

  it('leaves paid installments alone when their overdue day comes', () => {
    const paid = pay(installment(), '945.60', '2026-02-15').tx;
    expect(markOverdue(paid, '2026-02-16T00:00:00.000Z')).toBe(paid);
  });

  it('pays on time: the installment is paid with no charges', () => {
    const { tx, toCharges, toInstallment } = pay(installment(), '945.60', '2026-02-15');
    expect(tx).toMatchObject({ status: 'paid', paid_at: '2026-02-15T12:00:00.000Z' });
    expect([toCharges, toInstallment]).toEqual(['0.00', '945.60']);
    expect(installmentView(tx, '2026-06-01')).toMatchObject({
      days_overdue: 0,
      amount_paid: '945.60',
      amount_outstanding: '0.00',
    });
  });

  it('takes part of amount_due before the due date as partially_paid', () => {
    const { tx } = pay(installment(), '472.80', '2026-02-10');
    expect(tx.status).toBe('partially_paid');
    expect(installmentView(tx, '2026-02-10').amount_outstanding).toBe('472.80');
    // Overdue the next day on the unpaid half only.
    const late = markOverdue(tx, '2026-02-16T00:00:00.000Z');
    expect(late.fine).toBe(lateCharges('472.80', 1).fine);
    expect(installmentView(late, '2026-02-20').late_charges).toEqual(lateCharges('472.80', 5));
  });

  it('settles late charges before amount_due when paying late', () => {
    const overdue = markOverdue(installment(), '2026-02-16T00:00:00.000Z');
    const charges = lateCharges('945.60', 10);
    const { tx, toCharges, toInstallment } = pay(overdue, '100.00', '2026-02-25');
    expect(toCharges).toBe(charges.total);
    expect(toInstallment).toBe(toDecimal('100.00').minus(charges.total).toFixed(2));
    expect(tx.status).toBe('overdue');
    // Interest keeps accruing, now on the smaller unpaid part, from the payment date.
    const open = toDecimal('945.60').minus(toInstallment);
    const view = installmentView(tx, '2026-03-07');
    expect(view.late_charges.interest).toBe(
      toDecimal(charges.interest).plus(lateCharges(open, 10).interest).toFixed(2),
    );
    expect(view.days_overdue).toBe(20);
  });

  it('pays a late installment in full with its charges and stops counting', () => {
    const overdue = markOverdue(installment(), '2026-02-16T00:00:00.000Z');
    const owed = installmentBalance(overdue, '2026-02-25').outstanding;
    expect(owed.toFixed(2)).toBe(toDecimal('945.60').plus(lateCharges('945.60', 10).total).toFixed(2));
    const { tx } = pay(overdue, owed.toFixed(2), '2026-02-25');
    expect(tx.status).toBe('paid');
    const later = installmentView(tx, '2027-01-01');
    expect(later).toMatchObject({
      status: 'paid',
      days_overdue: 0,
      amount_outstanding: '0.00',
      amount_paid: owed.toFixed(2),
      late_charges: lateCharges('945.60', 10),
    });
  });

  it('never owes a negative amount and pays out exactly amount_due plus charges (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 500_000 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: -20, max: 60 })), {
          minLength: 1,
          maxLength: 8,
        }),
        (dueCents, payments) => {
          const due = (dueCents / 100).toFixed(2);
          let tx = installment({ amount_due: due });
          let overdueMarked = false;
          let day = -20;
          let paid = new FinanceDecimal(0);
          for (const [cents, offset] of [...payments].sort((a, b) => a[1] - b[1])) {
            day = Math.max(day, offset);
            if (day >= 1 && !overdueMarked) {
              tx = markOverdue(tx, NOW);
              overdueMarked = true;
            }
            const today = addDays('2026-02-15', day);
            const owed = installmentBalance(tx, today).outstanding;
            if (owed.lte(0)) break;
            const amount = FinanceDecimal.min(owed, new FinanceDecimal(cents).div(100));
            tx = pay(tx, amount.toFixed(2), today).tx;
            paid = paid.plus(amount);
            const after = installmentBalance(tx, today);
            expect(after.outstanding.gte(0)).toBe(true);
            expect(after.chargesOwed.gte(0)).toBe(true);
            expect(after.amountPaid.toFixed(2)).toBe(paid.toFixed(2));
            if (after.outstanding.isZero()) {
              expect(tx.status).toBe('paid');
              const charges = toDecimal(after.charges.total);
              expect(paid.toFixed(2)).toBe(toDecimal(due).plus(charges).toFixed(2));
            } else {
              expect(tx.status).not.toBe('paid');
            }
          }
        },
      ),
    );
  });
});
