// A check's own webhook endpoint: created on the target with the listener's URL, its deliveries
// collected, parsed and waited for. Deleted when the check ends.

import { WebhookSecret } from '../spec/shapes.js';
import { fail, skip } from '../verdict.js';
import type { Answer, PartnerApi } from '../wire.js';
import type { Delivery, Listener } from './listener.js';

/** The least time a delivery is waited for unless `--delivery-wait` says otherwise: its cause
 * already happened, so a delivery that never comes is a departure, and a target under load (a
 * shared staging, a busy CI machine) may queue a partner's deliveries behind many endpoints' for
 * tens of seconds — a busy machine must not make a departure up. */
export const MIN_DELIVERY_WAIT_MS = 30_000;

export interface HookOptions {
  /** Subscribed patterns (omitted: every event). */
  events?: string[];
  description?: string;
}

/** A delivery whose body is the spec's envelope. */
export interface DeliveredEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
  delivery: Delivery;
}

export interface Hook {
  readonly id: string;
  /** The secret from the create answer (`whsec_…`). */
  readonly secret: string;
  readonly created: Answer;
  deliveries(): Delivery[];
  /** Deliveries whose body has the envelope's three fields, in arrival order. */
  events(): DeliveredEvent[];
  /** The events about one object (its `data.id`, or `data.customer_id`), in arrival order. */
  about(id: string): DeliveredEvent[];
  /** Waits (real time, up to the run's timeout) for an event; fails when it never comes. */
  waitFor(what: string, match: (event: DeliveredEvent) => boolean): Promise<DeliveredEvent>;
  /** Waits for an event of `type` about object `id`. */
  waitForType(type: string, id: string): Promise<DeliveredEvent>;
}

export function isEnvelope(
  json: unknown,
): json is { type: string; timestamp: string; data: Record<string, unknown> } {
  if (typeof json !== 'object' || json === null) return false;
  const body = json as Record<string, unknown>;
  return (
    typeof body.type === 'string' &&
    typeof body.timestamp === 'string' &&
    typeof body.data === 'object' &&
    body.data !== null
  );
}

export async function createHook(
  api: PartnerApi,
  listener: Listener,
  options: HookOptions,
  waitMs: number,
  onClose: (undo: () => Promise<unknown>) => void,
): Promise<Hook> {
  const received: Delivery[] = [];
  const waiters = new Set<() => void>();
  const route = listener.route((delivery) => {
    received.push(delivery);
    for (const wake of waiters) wake();
  });
  const body: Record<string, unknown> = {
    url: route.url,
    description: options.description ?? 'credit-sandbox conformance kit',
  };
  if (options.events) body.events = options.events;
  const created = await api.call('POST', '/webhooks/endpoints', { body });
  if (created.status >= 400 && created.status < 500 && route.url.startsWith('http:')) {
    route.close();
    skip(
      `the target refused the kit's webhook URL ${route.url} (${created.status}); the spec asks for HTTPS: give --webhook-public-url https://… (a tunnel to the kit's listener)`,
    );
  }
  if (created.status < 200 || created.status > 299) {
    route.close();
    fail(`POST /webhooks/endpoints answered ${created.status}`, '2xx', created.text.slice(0, 300), created);
  }
  const endpoint = created.body as Record<string, unknown>;
  const id = endpoint.id;
  const secret = endpoint.secret;
  if (typeof id !== 'string' || !WebhookSecret.safeParse(secret).success) {
    route.close();
    fail(
      'the new webhook endpoint has no `id` or no `whsec_` secret',
      '{id, secret: "whsec_…"}',
      created.text.slice(0, 300),
      created,
    );
  }
  onClose(async () => {
    route.close();
    await api.call('DELETE', `/webhooks/endpoints/${id}`);
  });
  const events = (): DeliveredEvent[] =>
    received.flatMap((delivery) =>
      isEnvelope(delivery.json)
        ? [
            {
              type: delivery.json.type,
              timestamp: delivery.json.timestamp,
              data: delivery.json.data,
              delivery,
            },
          ]
        : [],
    );
  const waitFor = async (
    what: string,
    match: (event: DeliveredEvent) => boolean,
  ): Promise<DeliveredEvent> => {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const found = events().find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) {
        fail(
          `no webhook delivery of ${what} arrived within ${waitMs} ms`,
          what,
          `${
            events()
              .map((e) => e.type)
              .join(', ') || 'no deliveries'
          }`,
        );
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        waiters.add(wake);
      });
    }
  };
  const about = (target: string) =>
    events().filter((event) => event.data.id === target || event.data.customer_id === target);
  return {
    id,
    secret: secret as string,
    created,
    deliveries: () => [...received],
    events,
    about,
    waitFor,
    waitForType: (type, target) =>
      waitFor(
        `${type} about ${target}`,
        (event) => event.type === type && (event.data.id === target || event.data.customer_id === target),
      ),
  };
}
