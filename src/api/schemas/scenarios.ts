// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario files write placeholders as ${…} inside plain strings
import { z } from '@hono/zod-openapi';

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

export const ScenarioParamSchema = z
  .object({
    name: z.string().openapi({ example: 'days' }),
    type: z.enum(['string', 'integer', 'number', 'boolean']),
    description: z.string().nullable().openapi({ example: 'How many days past its due date' }),
    default: Scalar.nullable().openapi({
      description: 'May be a template such as ${random.cpf}, drawn per run',
    }),
    required: z.boolean(),
    example: Scalar.nullable(),
  })
  .openapi('ScenarioParam');

export const ScenarioSchema = z
  .object({
    name: z.string().openapi({ example: 'overdue-installment' }),
    description: z
      .string()
      .openapi({ example: 'A loan whose first installment goes unpaid until it is overdue' }),
    params: z.array(ScenarioParamSchema),
    steps: z.number().int().openapi({ description: 'Number of steps' }),
  })
  .openapi('Scenario');

export const RunScenarioBody = z
  .object({
    params: z
      .record(z.string(), Scalar)
      .optional()
      .openapi({
        example: { loan_id: 'ln_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d', installment_number: 3, days: 30 },
      }),
  })
  .openapi('RunScenarioRequest');

const StepResultSchema = z
  .object({
    index: z.number().int().openapi({ description: '1-based position of the step in the file' }),
    name: z.string().openapi({ example: 'register a customer' }),
    kind: z.enum(['request', 'advance', 'wait', 'expect', 'include']),
    status: z.enum(['passed', 'failed', 'skipped']),
    detail: z
      .string()
      .openapi({ description: 'What happened; for a failure, what was expected and what was found' }),
    response: z
      .object({ status: z.number().int(), body: z.unknown() })
      .optional()
      .openapi({ description: 'The last API response of the step' }),
  })
  .openapi('ScenarioStepResult');

export const RunResultSchema = z
  .object({
    scenario: z.string(),
    status: z.enum(['passed', 'failed']),
    params: z.record(z.string(), z.unknown()).openapi({ description: 'The params used, defaults filled in' }),
    steps: z.array(StepResultSchema),
    failed_step: z
      .object({
        index: z.number().int(),
        name: z.string().openapi({ example: 'the installment is overdue' }),
        detail: z.string(),
      })
      .optional()
      .openapi({ description: 'Present when status is failed' }),
    captured: z.record(z.string(), z.unknown()).openapi({
      description:
        'Every value the run captured, by name (e.g. `customer`, `offer`, `loan`): the objects a CI job seeded, with their ids',
    }),
  })
  .openapi('ScenarioRun');
