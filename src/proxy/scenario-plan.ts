import { type ControlMove, controlMove, earlierStatuses, isBehind, readPath } from './replay-moves.js';

/**
 * For `scenario from-recording`: the steps that take an object from the status the recording last
 * showed to the status a later answer (or event) shows, when no recorded request moved it — the
 * moves made outside the API, written as sandbox control calls and clock waits. Unlike `replay`,
 * the generator cannot look at a target: it reasons from the recording alone, with the same table
 * of moves (replay-moves.ts).
 */

type Json = Record<string, unknown>;
export type Step = Record<string, unknown>;

/** A condition on an object's status, where the step's answer holds it (`response.body`, `…data[2]`). */
export function statusCondition(at: string, status: string): string {
  return `${at}.status == ${JSON.stringify(status)}`;
}

function controlStep(move: ControlMove): Step {
  return {
    name: move.what.replace(/ \$\{[^}]+\}/g, ''),
    request: { method: move.method, path: `/v3${move.path}`, ...(move.body && { body: move.body }) },
  };
}

/**
 * A step that reads an object until it is at least as far along as `status` (none of the statuses
 * before it): for an event, which may show a state the object passes through quickly.
 */
export function reachStep(name: string, kind: string, path: string, status: string): Step {
  const earlier = earlierStatuses(kind, status);
  return {
    name,
    wait_until:
      earlier.length > 0
        ? earlier.map((before) => `response.body.status != ${JSON.stringify(before)}`)
        : statusCondition('response.body', status),
    request: { method: 'GET', path },
    every: '1s',
    within: '2m',
  };
}

/** A step that reads an object until its status is `status`, moving the clock `every` between tries. */
export function waitStep(name: string, path: string, at: string, status: string, every = '1s'): Step {
  return {
    name,
    wait_until: statusCondition(at, status),
    request: { method: 'GET', path },
    every,
    within: every === '1d' ? '400d' : '2m',
  };
}

function itemsOf(value: unknown): Json[] {
  return Array.isArray(value)
    ? value.filter((item): item is Json => typeof item === 'object' && item !== null)
    : [];
}

/** The biometrics capture the recording shows done (or under review) where it last showed it open. */
function biometricsDone(last: Json, recorded: Json): boolean {
  const before = itemsOf(last.kyc).find((item) => item.type === 'biometrics')?.status;
  const after = itemsOf(recorded.kyc).find((item) => item.type === 'biometrics')?.status;
  return (
    (before === 'pending' || before === 'pending_resubmission') &&
    (after === 'approved' || after === 'submitted')
  );
}

/** Whether the recording shows the object moved on since it last showed it. */
export function needsMoves(kind: string, last: Json, recorded: Json): boolean {
  return (
    isBehind(kind, last.status, recorded.status) || (kind === 'customer' && biometricsDone(last, recorded))
  );
}

/**
 * The steps that bring an object from `last` to `recorded`'s status (both as the recording shows
 * them, `last.id` already written as a placeholder such as `${loan.id}`), before the step that reads
 * it. Empty when the recording explains the change itself or the object only goes back.
 */
export function movesBetween(kind: string, last: Json, recorded: Json): Step[] {
  if (!needsMoves(kind, last, recorded)) return [];
  const id = String(last.id);
  const read = readPath(kind, id);
  const path = read === undefined ? undefined : `/v3${read}`;
  const target = String(recorded.status);
  const steps: Step[] = [];
  if (kind === 'loan' && path) {
    const before = ['processing', 'contract_generated'].includes(String(last.status));
    if (
      before &&
      isBehind('loan', 'awaiting_signatures', target) &&
      target !== 'cancelled' &&
      target !== 'error'
    ) {
      steps.push(
        waitStep('the contract is sent for signature', path, 'response.body', 'awaiting_signatures'),
      );
      last = { ...last, status: 'awaiting_signatures' };
    }
    if (target === 'finished') {
      if (last.status === 'awaiting_signatures')
        steps.push(controlStep(controlMove({ kind, actual: last, recorded })!));
      if (last.status !== 'active')
        steps.push(waitStep('the pix is confirmed', path, 'response.body', 'active'));
      steps.push({
        name: 'every installment is paid',
        wait_until: 'response.body.loan.status == "finished"',
        request: {
          method: 'POST',
          path: `/v3/sandbox/loans/${id}/payments`,
          body: { amount: last.installments_value },
        },
        interval: '0ms',
        max_tries: 100,
      });
      return steps;
    }
  }
  if (kind === 'customer') {
    const items = (value: unknown) =>
      Array.isArray(value) ? value.filter((i): i is Json => typeof i === 'object' && i !== null) : [];
    const biometrics = items(last.kyc).find((item) => item.type === 'biometrics');
    if (biometrics && (biometrics.status === 'pending' || biometrics.status === 'pending_resubmission')) {
      steps.push(controlStep(controlMove({ kind, actual: last, recorded })!));
      last = {
        ...last,
        kyc: items(last.kyc).map((item) =>
          item.type === 'biometrics' ? { ...item, status: 'approved' } : item,
        ),
      };
      if (target === 'active' && last.status === 'pending_kyc') {
        steps.push(waitStep('the KYC review starts', path!, 'response.body', 'under_review'));
        last = { ...last, status: 'under_review' };
      }
    }
  }
  const move = controlMove({ kind, actual: last, recorded });
  if (move) steps.push(controlStep(move));
  return steps;
}
