import type { SandboxClient } from './client.js';
import type { ListenSecrets } from './listen-secrets.js';

/** The endpoint a `listen` run relays through, and how it came to be. */
export interface ListenEndpoint {
  id: string;
  secret: string;
  events: string[];
  /** `created` the first time; `reused` with the stored secret; `rotated` on --new-secret (or no stored secret). */
  origin: 'created' | 'reused' | 'rotated';
}

interface EndpointView {
  id: string;
  url: string;
  events: string[];
  description: string;
  secret?: string;
}

/** How `listen` names its endpoint: the forward URL finds it again on the next run. */
export function listenDescription(forward: URL): string {
  return `credit-sandbox listen → ${forward.href}`.slice(0, 500);
}

async function findByDescription(
  client: SandboxClient,
  description: string,
): Promise<EndpointView | undefined> {
  let after: string | undefined;
  for (;;) {
    const page = await client.call<{ data: EndpointView[]; has_more: boolean }>(
      'GET',
      '/v3/webhooks/endpoints',
      {
        query: { limit: 100, starting_after: after },
      },
    );
    const found = page.data.find((endpoint) => endpoint.description === description);
    if (found || !page.has_more || page.data.length === 0) return found;
    after = page.data.at(-1)?.id;
  }
}

/**
 * One endpoint per partner and forward URL across runs, as the Stripe CLI keeps one secret: the
 * endpoint is found by its description (`credit-sandbox listen → <forward URL>`), pointed at this
 * run's relay and enabled; its secret comes from the local secrets file. A new one is created the
 * first time; `newSecret` (or a secret this machine never saw) rotates it at once.
 */
export async function claimEndpoint(
  client: SandboxClient,
  secrets: ListenSecrets,
  options: { forward: URL; relayUrl: string; patterns: string[]; newSecret: boolean },
): Promise<ListenEndpoint> {
  const description = listenDescription(options.forward);
  const key = `${client.baseUrl} ${client.options.clientId} ${options.forward.href}`;
  const existing = await findByDescription(client, description);
  if (!existing) {
    const created = await client.call<EndpointView & { secret: string }>('POST', '/v3/webhooks/endpoints', {
      body: { url: options.relayUrl, events: options.patterns, description },
    });
    secrets.set(key, { endpointId: created.id, secret: created.secret });
    return { id: created.id, secret: created.secret, events: created.events, origin: 'created' };
  }
  const updated = await client.call<EndpointView>('PATCH', `/v3/webhooks/endpoints/${existing.id}`, {
    body: { url: options.relayUrl, events: options.patterns, status: 'active' },
  });
  const stored = secrets.get(key);
  if (stored && stored.endpointId === existing.id && !options.newSecret) {
    return { id: existing.id, secret: stored.secret, events: updated.events, origin: 'reused' };
  }
  // The old secret stops signing at once: nothing else should be verifying with it.
  const rotated = await client.call<{ secret: string }>(
    'POST',
    `/v3/webhooks/endpoints/${existing.id}/secret/rotate`,
    { body: { expire_current_in: 0 } },
  );
  secrets.set(key, { endpointId: existing.id, secret: rotated.secret });
  return { id: existing.id, secret: rotated.secret, events: updated.events, origin: 'rotated' };
}

/** Between runs the endpoint is disabled: events that happen meanwhile are not queued for it. */
export async function releaseEndpoint(client: SandboxClient, id: string): Promise<void> {
  await client.call('PATCH', `/v3/webhooks/endpoints/${id}`, {
    body: { status: 'disabled' },
    accept: [200, 404],
  });
}
