import type { DomainModule } from '../domain/modules.js';
import { fixedClock } from '../engine/clock.js';
import { fanOut } from './deliveries.js';

/**
 * Webhook fan-out: every event appended to a partner's log becomes one delivery per matching
 * active endpoint, its first attempt scheduled at the event's own time (so inside a clock advance
 * deliveries go out in the order their events happened). Sending is `createWebhookDelivery`'s part.
 */
export const webhooksModule: DomainModule = {
  name: 'webhooks',
  register(engine) {
    engine.onEvent((event) => {
      // Most partners' events go nowhere: no context (a set of closures) is built for them.
      const { store } = engine.context(event.partner_id);
      if (!store.webhookEndpointIdx.byPartner.has(event.partner_id)) return;
      fanOut(engine.context(event.partner_id, fixedClock(Date.parse(event.timestamp))), event);
    });
  },
};
