import { z } from '@hono/zod-openapi';

const Scalar = z.union([z.string(), z.number(), z.boolean()]);
const StateName = z.string().trim().min(1).max(200);
const Params = z.record(z.string(), Scalar.nullable()).optional();

/** One state of the `states` array form: a bare name or `{name, params}`. */
const StateEntry = z.union([
  StateName,
  z.object({ name: StateName, params: Params }).openapi('ProviderStateEntry'),
]);

/**
 * The body every Pact verifier sends to its provider state change URL (Pact JS and the Rust core,
 * Pact JVM with `stateChangeUsesBody`): one `state` with its `params`, or a `states` array (the
 * Ruby verifier's form, also sent by older clients). Other fields a verifier adds are ignored.
 */
export const ProviderStateBody = z
  .object({
    state: StateName.optional().openapi({ example: 'a customer with an overdue installment' }),
    states: z.array(StateEntry).min(1).max(20).optional(),
    params: Params.openapi({ example: { days: 45 } }),
    action: z.enum(['setup', 'teardown']).default('setup'),
    consumer: z.string().max(200).optional().openapi({ example: 'partner-app' }),
  })
  .openapi('ProviderStateChange');

export const ProviderStateValues = z.record(z.string(), Scalar.nullable()).openapi('ProviderStateValues', {
  description:
    "Setup: the values the scenario captured, as one flat object for Pact's `fromProviderState` (`customer_id`, `loan_id`, `installment_number`…). Teardown: `{}`.",
  example: {
    customer_id: 'cust_5b1c0e2f9a8d4c7b6e3f2a1d0c9b8a7e',
    loan_id: 'ln_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d',
  },
});
