// Simulations ("Simulation", POST /credit-offers/{id}/simulations): every field, and every amount
// to the cent against the kit's own Price table, IOF and CET (src/conformance/money/), never
// against the target's code.
import { okBody } from '../context.js';
import { availableOffer, type Json, loanBody, simulate } from '../flows/credit.js';
import { activeCustomer, sharedActiveCustomer } from '../flows/customers.js';
import type { Answer } from '../http.js';
import { saoPauloDate } from '../money/dates.js';
import type { Borrower } from '../money/iof.js';
import { type ExpectedSimulation, expectedSimulation } from '../money/simulation.js';
import { Simulation } from '../spec/shapes.js';
import { expectShape } from '../spec/validate.js';
import type { Check, CheckContext } from '../types.js';
import { expectClientError, expectEqual, expectStatus, expectTrue } from '../verdict.js';
import { expectProblem } from './problems.js';

const SPEC = 'Endpoints › Simulation and loans › POST /credit-offers/{credit_offer_id}/simulations';

interface Simulated {
  offer: Json;
  simulation: ReturnType<typeof Simulation.parse>;
  answer: Answer;
  expected: ExpectedSimulation;
}

/** A simulation of an offer of the shared (individual or MEI) customer, with what it must answer. */
async function simulated(
  ctx: CheckContext,
  borrower: Borrower,
  amount?: string,
  offer?: Json,
): Promise<Simulated> {
  const theOffer =
    offer ?? (await availableOffer(ctx, (await sharedActiveCustomer(ctx, borrower === 'simples')).id));
  const answer = await simulate(await ctx.partner(), theOffer, amount);
  expectStatus(answer, 201, 'POST /credit-offers/{id}/simulations');
  const simulation = expectShape(Simulation, answer.body, 'Simulation', answer);
  const expected = expectedSimulation({
    requestedAmount: simulation.requested_amount,
    interestRate: Number(theOffer.interest_rate),
    installments: simulation.number_of_installments,
    firstDueDate: simulation.first_due_date,
    simulatedAt: simulation.created_at,
    feesAmount: simulation.fees_amount,
    borrower,
  });
  return { offer: theOffer, simulation, answer, expected };
}

function moneyCheck(
  id: string,
  title: string,
  fields: Array<keyof ExpectedSimulation>,
  borrower: Borrower = 'individual',
): Check {
  return {
    id: `credit.simulation.${id}`,
    title,
    spec: `Resources › Simulation; ${SPEC}`,
    needs: 'black-box',
    async run(ctx) {
      const { simulation, answer, expected } = await simulated(ctx, borrower);
      for (const field of fields)
        expectEqual(simulation[field], expected[field], `${field} (the kit's own computation)`, answer);
    },
  };
}

export const SIMULATION_CHECKS: Check[] = [
  {
    id: 'credit.simulation.fields',
    title: 'a simulation is answered 201 with every field of the spec',
    spec: `Resources › Simulation; ${SPEC}`,
    needs: 'black-box',
    async run(ctx) {
      await simulated(ctx, 'individual');
    },
  },
  {
    id: 'credit.simulation.terms',
    title: 'the simulation echoes the offer, the amount, the count and the offer’s monthly rate',
    spec: 'Resources › Simulation',
    needs: 'black-box',
    async run(ctx) {
      const { offer, simulation, answer } = await simulated(ctx, 'individual');
      expectEqual(simulation.credit_offer_id, offer.id, 'credit_offer_id', answer);
      expectEqual(
        simulation.interest_percentage,
        offer.interest_rate,
        'interest_percentage is the offer’s interest_rate',
        answer,
      );
      const sent = (answer.request.body as Json).requested_amount;
      expectEqual(Number(simulation.requested_amount), Number(sent), 'requested_amount as sent', answer);
      expectEqual(
        simulation.number_of_installments,
        (answer.request.body as Json).installment_count,
        'number_of_installments is installment_count',
        answer,
      );
    },
  },
  {
    id: 'credit.simulation.first-due-date',
    title: 'the first installment falls due after the simulation date',
    spec: 'Resources › Simulation (first_due_date)',
    needs: 'black-box',
    async run(ctx) {
      const { simulation, answer } = await simulated(ctx, 'individual');
      const day = saoPauloDate(simulation.created_at);
      expectTrue(
        simulation.first_due_date > day,
        'first_due_date is not after the simulation date',
        `after ${day}`,
        simulation.first_due_date,
        answer,
      );
    },
  },
  moneyCheck('installment-value', 'installments_value is the Price-table installment, to the cent', [
    'installments_value',
  ]),
  moneyCheck('interest', 'interest_amount is n × installments_value − requested_amount, to the cent', [
    'interest_amount',
  ]),
  moneyCheck(
    'iof-individual',
    'iof_amount for an individual: 0.38 % + 0.0082 % a day on each amortisation (≤ 365 days)',
    ['iof_amount'],
  ),
  moneyCheck(
    'iof-simples',
    'iof_amount for a Simples Nacional / MEI company up to R$ 30,000: 0.38 % + 0.00274 % a day',
    ['iof_amount'],
    'simples',
  ),
  moneyCheck('net-amount', 'amount (net to the customer) is requested_amount − IOF − fees', ['amount']),
  moneyCheck('total', 'total_loan_amount is principal + interest + fees + IOF', ['total_loan_amount']),
  moneyCheck('cet', 'cet_percentage is the annual CET of Resolução CMN 4.881, to 0.01', ['cet_percentage']),
  moneyCheck(
    'simples-amounts',
    "a company's simulation adds up to the cent as well (installment, net amount, total, CET)",
    ['installments_value', 'amount', 'total_loan_amount', 'cet_percentage'],
    'simples',
  ),
  {
    id: 'credit.simulation.iof-simples-above-30000',
    title: 'above R$ 30,000 a Simples Nacional company pays the ordinary daily IOF rate',
    spec: 'Resources › Simulation (iof_amount); Decreto 6.306/2007 art. 7',
    needs: 'controlled',
    async run(ctx) {
      const customer = await activeCustomer(ctx, { mei: true });
      const granted = await ctx.control('POST', `/sandbox/customers/${customer.id}/credit-offers`, {
        approved_amount: '50000.00',
        min_amount: '1000.00',
        interest_rate: 1.99,
        installments: 12,
      });
      const { simulation, answer, expected } = await simulated(
        ctx,
        'simples',
        '40000.00',
        granted.body as Json,
      );
      expectEqual(
        simulation.iof_amount,
        expected.iof_amount,
        "iof_amount of R$ 40,000 (the kit's own computation)",
        answer,
      );
    },
  },
  {
    id: 'credit.simulation.unknown-offer',
    title: 'a simulation of an unknown offer is answered 404',
    spec: `${SPEC}; Errors rule 4`,
    needs: 'black-box',
    async run(ctx) {
      const answer = await (await ctx.partner()).call(
        'POST',
        `/credit-offers/co_${'0'.repeat(31)}2/simulations`,
        {
          body: { requested_amount: '1000.00', installment_count: 12 },
        },
      );
      expectStatus(answer, 404, 'POST /credit-offers/{unknown}/simulations');
      expectProblem(answer, 404);
    },
  },
  {
    id: 'credit.simulation.required-fields',
    title: 'a simulation without requested_amount or installment_count is refused (400/422 problem)',
    spec: SPEC,
    needs: 'black-box',
    async run(ctx) {
      const offer = await availableOffer(ctx, (await sharedActiveCustomer(ctx)).id);
      const api = await ctx.partner();
      for (const body of [{ installment_count: 12 }, { requested_amount: String(offer.min_amount) }]) {
        const answer = await api.call('POST', `/credit-offers/${String(offer.id)}/simulations`, { body });
        expectStatus(answer, [400, 422], `a simulation body ${JSON.stringify(body)}`);
        expectProblem(answer);
      }
    },
  },
  {
    id: 'credit.simulation.amount-is-a-string',
    title: 'requested_amount is a decimal string: a JSON number is refused (400/422 problem)',
    spec: `${SPEC} (requested_amount: string decimal)`,
    needs: 'black-box',
    async run(ctx) {
      const offer = await availableOffer(ctx, (await sharedActiveCustomer(ctx)).id);
      const count = offer.installments ?? offer.min_installments;
      const answer = await (await ctx.partner()).call(
        'POST',
        `/credit-offers/${String(offer.id)}/simulations`,
        {
          body: { requested_amount: Number(offer.min_amount), installment_count: count },
        },
      );
      expectStatus(answer, [400, 422], 'a simulation with requested_amount as a number');
      expectProblem(answer);
    },
  },
  {
    id: 'credit.simulation.latest-only',
    title: 'only the latest simulation can be contracted',
    spec: `${SPEC} (only the latest simulation is valid for contracting)`,
    needs: 'black-box',
    async run(ctx) {
      const customer = await activeCustomer(ctx);
      const offer = await availableOffer(ctx, customer.id);
      const api = await ctx.partner();
      const older = okBody(await simulate(api, offer), 'the first simulation');
      const latest = okBody(await simulate(api, offer), 'the second simulation');
      const refused = await api.call('POST', '/loans', { body: loanBody(offer, older) });
      expectClientError(refused, 'POST /loans with a simulation that is not the latest');
      expectProblem(refused);
      const accepted = await api.call('POST', '/loans', { body: loanBody(offer, latest) });
      expectTrue(
        accepted.status >= 200 && accepted.status < 300,
        'POST /loans with the latest simulation is refused',
        '2xx',
        accepted.status,
        accepted,
      );
    },
  },
];
