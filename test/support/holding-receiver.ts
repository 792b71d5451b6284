import type { ReceiverAnswer, WebhookSender } from '../../src/webhooks/sender.js';

/**
 * An in-process webhook receiver that holds every request until released (each `held` function
 * answers one 200), and tells when one arrives: a test sees an attempt on the wire and decides
 * when it ends.
 */
export function holdingReceiver() {
  const held: (() => void)[] = [];
  let arrived: () => void = () => {};
  let arrival = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const send: WebhookSender = () =>
    new Promise<ReceiverAnswer>((resolve) => {
      held.push(() => resolve({ statusCode: 200, retryAfter: null, body: 'ok' }));
      arrived();
    });
  return {
    send,
    held,
    nextArrival: async () => {
      await arrival;
      arrival = new Promise<void>((resolve) => {
        arrived = resolve;
      });
    },
  };
}
