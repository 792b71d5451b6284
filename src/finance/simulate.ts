import { type IsoDate, isIsoDate } from './calendar.js';
import { cetPercentage } from './cet.js';
import { dayCounts, defaultFirstDueDate, dueDateSchedule } from './due-dates.js';
import { type Borrower, type IofBreakdown, iofBreakdown } from './iof.js';
import { FinanceDecimal, formatMoney, isMoneyString, type Money, toDecimal } from './money.js';
import { type AmortizationLine, amortizationSchedule, installmentValueDecimal } from './price-table.js';
import { percentToFraction } from './rate.js';

/** The terms of one simulation. */
export interface LoanTerms {
  /** P, e.g. "10000.00". */
  requestedAmount: Money;
  /** The offer's `interest_rate`, percent a month (2 or "2" for 2 %). */
  monthlyRatePercent: number | string;
  installmentCount: number;
  /** The simulation (and assumed disbursement) date, from the partner clock. */
  simulationDate: IsoDate;
  /** Defaults to the simulation date + 30 days; must fall after the simulation date. */
  firstDueDate?: IsoDate | undefined;
  borrower: Borrower;
  /** Defaults to "0.00"; individuals may not be charged fees. */
  feesAmount?: Money | undefined;
}

/** Every money field of the Simulation resource, plus the schedule behind them. */
export interface LoanSimulation {
  requested_amount: Money;
  /** Net to the customer: requested − IOF − fees. */
  amount: Money;
  /** n·installments_value − requested_amount. */
  interest_amount: Money;
  fees_amount: Money;
  iof_amount: Money;
  /** amount + interest + fees + IOF, which equals n·installments_value. */
  total_loan_amount: Money;
  /** The monthly rate in percent, as sent. */
  interest_percentage: number;
  /** CET in percent a year, 2 decimals. */
  cet_percentage: number;
  number_of_installments: number;
  installments_value: Money;
  first_due_date: IsoDate;
  due_dates: IsoDate[];
  /** Calendar days from the simulation date to each due date. */
  day_counts: number[];
  schedule: AmortizationLine[];
  iof: IofBreakdown;
}

/**
 * Simulates a Price-table loan: installments, IOF, net amount, total and CET, as the Simulation
 * resource shows them. Pure: the simulation date comes from the caller's clock.
 */
export function simulateLoan(terms: LoanTerms): LoanSimulation {
  const feesText = terms.feesAmount ?? '0.00';
  for (const [name, value] of [
    ['requested amount', terms.requestedAmount],
    ['fees amount', feesText],
  ] as const) {
    if (!isMoneyString(value)) {
      throw new RangeError(`The ${name} "${value}" must be a decimal string with 2 places, e.g. "10000.00".`);
    }
  }
  const principal = toDecimal(terms.requestedAmount);
  const fees = toDecimal(feesText);
  if (terms.borrower === 'individual' && !fees.isZero()) {
    throw new RangeError(
      'Individuals may not be charged fees (origination fees are forbidden for them); send fees 0.00.',
    );
  }
  if (!isIsoDate(terms.simulationDate)) {
    throw new RangeError(`Simulation date "${terms.simulationDate}" must be a date written YYYY-MM-DD.`);
  }
  const firstDueDate = terms.firstDueDate ?? defaultFirstDueDate(terms.simulationDate);
  if (!isIsoDate(firstDueDate) || firstDueDate <= terms.simulationDate) {
    throw new RangeError(
      `First due date "${firstDueDate}" must be a YYYY-MM-DD date after the simulation date ${terms.simulationDate}.`,
    );
  }

  const count = terms.installmentCount;
  const payment = installmentValueDecimal(principal, percentToFraction(terms.monthlyRatePercent), count);
  const schedule = amortizationSchedule(principal, terms.monthlyRatePercent, count, payment);
  const dueDates = dueDateSchedule(firstDueDate, count);
  const days = dayCounts(terms.simulationDate, dueDates);
  const iof = iofBreakdown({
    principal,
    principals: schedule.map((line) => line.principal),
    dayCounts: days,
    borrower: terms.borrower,
  });

  const net = principal.minus(iof.total).minus(fees);
  if (net.lte(0)) {
    throw new RangeError(
      `IOF ${iof.total} and fees ${formatMoney(fees)} leave nothing of ${terms.requestedAmount} to disburse; raise the amount or lower the fees.`,
    );
  }
  const total = payment.mul(count);
  return {
    requested_amount: formatMoney(principal),
    amount: formatMoney(net),
    interest_amount: formatMoney(total.minus(principal)),
    fees_amount: formatMoney(fees),
    iof_amount: iof.total,
    total_loan_amount: formatMoney(total),
    interest_percentage: new FinanceDecimal(String(terms.monthlyRatePercent)).toNumber(),
    cet_percentage: cetPercentage({ netAmount: net, installmentValue: payment, dayCounts: days }),
    number_of_installments: count,
    installments_value: formatMoney(payment),
    first_due_date: firstDueDate,
    due_dates: dueDates,
    day_counts: days,
    schedule,
    iof,
  };
}
