// What a simulation must answer, computed by the kit itself from the spec's formulas and the
// regulations they cite, never from the target's code: the Price installment, interest, IOF,
// net amount, total and CET, to the cent.
import { cetPercent } from './cet.js';
import { dueDates, saoPauloDate } from './dates.js';
import { type Borrower, iof } from './iof.js';
import { KitDecimal as D, installmentValue } from './price.js';

export interface SimulationInput {
  requestedAmount: string;
  /** Monthly rate in percent, as the offer's `interest_rate` (2 = 2 % a month). */
  interestRate: number;
  installments: number;
  /** The simulation's `first_due_date`; the others follow monthly on its day. */
  firstDueDate: string;
  /** When the simulation was made (its `created_at`): its São Paulo date is the disbursement date. */
  simulatedAt: string;
  /** The simulation's `fees_amount` (fees depend on the product; the kit only checks they add up). */
  feesAmount: string;
  borrower: Borrower;
}

export interface ExpectedSimulation {
  installments_value: string;
  interest_amount: string;
  iof_amount: string;
  amount: string;
  total_loan_amount: string;
  cet_percentage: number;
}

export function expectedSimulation(input: SimulationInput): ExpectedSimulation {
  const p = new D(input.requestedAmount);
  const i = new D(input.interestRate).div(100);
  const n = input.installments;
  const disbursedOn = saoPauloDate(input.simulatedAt);
  const due = dueDates(input.firstDueDate, n);
  const pmt = installmentValue(p, i, n);
  const interest = pmt.mul(n).minus(p);
  const tax = iof(p, i, disbursedOn, due, input.borrower);
  const fees = new D(input.feesAmount);
  const net = p.minus(tax).minus(fees);
  return {
    installments_value: pmt.toFixed(2),
    interest_amount: interest.toFixed(2),
    iof_amount: tax.toFixed(2),
    amount: net.toFixed(2),
    total_loan_amount: net.plus(interest).plus(fees).plus(tax).toFixed(2),
    cet_percentage: cetPercent(net, pmt, disbursedOn, due),
  };
}
