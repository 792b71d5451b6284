import { z } from 'zod';
import { fixedClock } from '../../engine/clock.js';
import type { DomainContext } from '../../engine/context.js';
import type { Engine } from '../../engine/engine.js';
import { idsPayload } from '../../engine/job-payloads.js';
import type { DomainModule, ModuleSettings } from '../modules.js';
import { creditContext } from './credit-context.js';
import { runInstallmentOverdue, runMagicPayment } from './installment-jobs.js';
import { CREDIT_JOBS } from './jobs.js';
import { runLoanStep } from './loan-lifecycle.js';
import { grantOffer, runOfferExpiry, runOfferRegeneration } from './offers.js';

/**
 * Credit offers, simulations, loans and installments: grants an offer when a customer becomes
 * active, and runs every automatic move of offers and loans as timed jobs.
 */
export const creditModule: DomainModule = {
  name: 'credit',
  register(engine: Engine, settings: ModuleSettings) {
    const credit = (ctx: DomainContext) => creditContext(ctx, settings.publicUrl);
    const id = (value: unknown) => String(value);

    engine.handle(
      CREDIT_JOBS.offerExpire,
      (ctx, p) => runOfferExpiry(ctx, id(p.credit_offer_id)),
      idsPayload({ credit_offer_id: 'co_' }),
    );
    engine.handle(
      CREDIT_JOBS.offerRegenerate,
      (ctx, p) => runOfferRegeneration(ctx, id(p.customer_id)),
      idsPayload({ customer_id: 'cust_' }),
    );
    for (const kind of [
      CREDIT_JOBS.generateContract,
      CREDIT_JOBS.requestSignature,
      CREDIT_JOBS.customerSignature,
      CREDIT_JOBS.signatureExpire,
      CREDIT_JOBS.startDisbursement,
      CREDIT_JOBS.confirmDisbursement,
    ]) {
      engine.handle(
        kind,
        (ctx, p) =>
          runLoanStep(
            credit(ctx),
            kind,
            id(p.loan_id),
            typeof p.decision === 'string' ? p.decision : undefined,
          ),
        kind === CREDIT_JOBS.customerSignature
          ? idsPayload({ loan_id: 'ln_' }, { decision: z.enum(['sign', 'decline']) })
          : idsPayload({ loan_id: 'ln_' }),
      );
    }
    engine.handle(
      CREDIT_JOBS.installmentOverdue,
      (ctx, p) => runInstallmentOverdue(credit(ctx), id(p.transaction_id)),
      idsPayload({ transaction_id: 'tx_' }),
    );
    engine.handle(
      CREDIT_JOBS.magicPayment,
      (ctx, p) => runMagicPayment(credit(ctx), id(p.transaction_id)),
      idsPayload({ transaction_id: 'tx_' }),
    );

    // The service grants offers when KYC makes a customer active, at that event's time.
    engine.onEvent((event) => {
      if (event.type !== 'customer.active') return;
      const ctx = engine.context(event.partner_id, fixedClock(Date.parse(event.timestamp)));
      const customer = ctx.store.customers.get(String(event.data.id));
      if (customer && customer.partner_id === event.partner_id) grantOffer(ctx, customer);
    });
  },
};
