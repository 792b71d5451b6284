// What each check runs with: its partner (an isolated one per check in controlled mode), its own
// seeded people and references, its webhook endpoints, waits that move the clock or poll, and the
// clean-ups that run when it ends.
import { type Answer, type HttpOptions, type PartnerApi, partnerApi, type TokenCache } from './http.js';
import { digitStream, makeCnpj, makeCpf } from './identity.js';
import type { Recorder } from './recorder.js';
import type { Check, CheckContext, RunFacts, WaitOptions } from './types.js';
import { fail, skip } from './verdict.js';
import { createHook, type Hook } from './webhooks/hook.js';
import type { Listener } from './webhooks/listener.js';

/** What the runner shares with every check's context. */
export interface RunServices {
  facts: RunFacts;
  recorder: Recorder;
  http(sink: HttpOptions['sink']): HttpOptions;
  credential: { clientId: string; clientSecret: string };
  /** The main credential's token, shared by every check (renewed by whoever gets a 401). */
  mainToken: TokenCache;
  /** Controlled mode and the target creates partners: each check gets its own. */
  isolatedPartners: boolean;
  listener(): Promise<Listener>;
  /** Isolated partners made before a check asked (the runner's probe makes the first). */
  spares: Array<{ id: string; clientId: string; clientSecret: string }>;
  /** Fixtures of the shared partner (black box, or controlled without isolation). */
  sharedFixtures: Map<string, Promise<unknown>>;
  /** Journeys of the run, and the contexts they were built in (closed when the run ends). */
  journeys: Map<string, Promise<unknown>>;
  journeyRuns: CheckRun[];
  /** Clean-ups that wait for the end of the run (endpoints of a shared partner). */
  deferred: Array<() => Promise<unknown>>;
}

/** Partner time the clock may be moved while waiting for one move (controlled mode). */
const DEFAULT_PARTNER_TIME_MS = 2 * 3600_000;
const STEPS_S = [1, 1, 2, 4, 8, 15, 30, 60, 120, 300, 600, 1800, 3600, 3600 * 3, 3600 * 6, 86_400];

export interface CheckRun {
  ctx: CheckContext;
  /** Runs the clean-ups, newest first; never throws. */
  close(): Promise<void>;
}

export function checkContext(check: Check, services: RunServices): CheckRun {
  const { facts } = services;
  const sink = services.recorder.sink(check.id);
  const http = services.http(sink);
  const undo: Array<() => Promise<unknown>> = [];
  const digits = digitStream(`${facts.runTag}:${check.id}`);
  let externalIds = 0;
  let own: Promise<PartnerApi> | undefined;
  let other: Promise<PartnerApi> | undefined;
  const ownFixtures = new Map<string, Promise<unknown>>();
  const hooks: Hook[] = [];
  const main = partnerApi(
    http,
    services.credential.clientId,
    services.credential.clientSecret,
    services.mainToken,
  );

  const newPartner = async (label: string): Promise<PartnerApi> => {
    const spare = services.spares.pop();
    if (spare) {
      undo.push(() => removePartner(main, spare.id));
      return partnerApi(http, spare.clientId, spare.clientSecret);
    }
    const name = `conformance ${facts.runTag} ${check.id}${label}`.slice(0, 200);
    const created = await main.call('POST', '/sandbox/partners', {
      body: { name, clock: 'frozen', expires_in: KIT_PARTNER_LIFETIME_S },
    });
    const body = created.body as
      | { id?: unknown; client_id?: unknown; client_secret?: unknown; clock?: { frozen?: unknown } }
      | undefined;
    if (
      created.status !== 201 ||
      typeof body?.client_id !== 'string' ||
      typeof body.client_secret !== 'string'
    ) {
      skip(
        `POST /v3/sandbox/partners answered ${created.status}: the kit could not make an isolated partner`,
      );
    }
    if (typeof body.id === 'string') {
      const id = body.id;
      undo.push(() => removePartner(main, id));
    }
    const api = partnerApi(http, body.client_id, body.client_secret);
    return body.clock?.frozen === true ? api : frozen(api);
  };
  // Older sandboxes ignore `clock` in the request: freeze explicitly then.
  const frozen = async (api: PartnerApi): Promise<PartnerApi> => {
    const clock = await api.call('GET', '/sandbox/clock');
    if ((clock.body as { frozen?: unknown } | undefined)?.frozen !== true)
      await api.call('POST', '/sandbox/clock/freeze');
    return api;
  };

  const partner = (): Promise<PartnerApi> => {
    own ??= services.isolatedPartners ? newPartner('') : Promise.resolve(main);
    return own;
  };

  const control = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    if (facts.mode !== 'controlled')
      skip(`needs the control API (/v3${path}), which a black-box target does not answer`);
    const answer = await (await partner()).call(method, path, body === undefined ? {} : { body });
    if (answer.status < 200 || answer.status > 299) {
      skip(`the control call ${method} /v3${path} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
    }
    return answer;
  };

  const advance = async (by: string): Promise<void> => {
    await control('POST', '/sandbox/clock/advance', { by });
  };

  const ctx: CheckContext = {
    check,
    facts,
    partner,
    otherPartner() {
      if (!services.isolatedPartners)
        skip('needs a second partner, which only the control API of a controlled target can make');
      other ??= newPartner(' (other)');
      return other;
    },
    async webhook(options = {}) {
      // On a shared partner another check may be paging the endpoint list: endpoints are deleted
      // when the run ends, not when their check does (a deleted cursor would fail that check).
      const later = (u: () => Promise<unknown>) => {
        if (services.isolatedPartners) undo.push(u);
        else services.deferred.push(u);
      };
      const hook = await createHook(
        await partner(),
        await services.listener(),
        options,
        facts.deliveryWaitMs,
        later,
      );
      hooks.push(hook);
      // ...but paused when its check ends: the shared partner's every endpoint gets every event,
      // and endpoints kept live for the whole run queued its deliveries past the kit's wait.
      if (!services.isolatedPartners) {
        const api = await partner();
        undo.push(() =>
          api.call('PATCH', `/webhooks/endpoints/${hook.id}`, { body: { status: 'disabled' } }),
        );
      }
      return hook;
    },
    fixture<T>(key: string, build: () => Promise<T>): Promise<T> {
      const memo = services.isolatedPartners ? ownFixtures : services.sharedFixtures;
      let value = memo.get(key) as Promise<T> | undefined;
      if (!value) {
        value = build();
        memo.set(key, value);
      }
      return value;
    },
    journey<T>(key: string, build: (journeyCtx: CheckContext) => Promise<T>): Promise<T> {
      let value = services.journeys.get(key) as Promise<T> | undefined;
      if (!value) {
        const pseudo: Check = {
          id: `journey.${key}`,
          title: `journey ${key}`,
          spec: '',
          needs: 'black-box',
          run: async () => {},
        };
        const run = checkContext(pseudo, services);
        services.journeyRuns.push(run);
        value = build(run.ctx);
        services.journeys.set(key, value);
      }
      return value;
    },
    cpf: () => makeCpf(digits),
    cnpj: () => makeCnpj(digits),
    externalId(label = 'obj') {
      externalIds += 1;
      return `conformance-${facts.runTag}-${check.id}-${label}-${externalIds}`;
    },
    cleanup(step) {
      undo.push(step);
    },
    lastAnswer: () => sink.last(),
    async until<T>(what: string, probe: () => Promise<T | undefined>, options: WaitOptions = {}) {
      const budget = options.partnerTime ?? DEFAULT_PARTNER_TIME_MS;
      if (facts.mode === 'controlled') {
        let moved = 0;
        for (let step = 0; ; step++) {
          const mark = sink.mark();
          const value = await probe();
          if (value !== undefined) return value;
          sink.rollback(mark);
          const planned =
            options.fine && moved < 120_000 ? 1 : (STEPS_S[Math.min(step, STEPS_S.length - 1)] as number);
          const seconds = Math.min(planned, Math.ceil((budget - moved) / 1000));
          if (seconds <= 0) skip(`the target did not ${what} within ${formatMs(budget)} of partner time`);
          await advance(`${seconds}s`);
          moved += seconds * 1000;
        }
      }
      const deadline = Date.now() + facts.timeoutMs;
      for (let wait = 200; ; wait = Math.min(wait * 1.5, 2000)) {
        const mark = sink.mark();
        const value = await probe();
        if (value !== undefined) return value;
        if (Date.now() >= deadline)
          skip(`the target did not ${what} within --timeout ${formatMs(facts.timeoutMs)}`);
        sink.rollback(mark);
        await new Promise((r) => setTimeout(r, Math.min(wait, Math.max(0, deadline - Date.now()))));
      }
    },
    advance,
    control,
  };
  return {
    ctx,
    async close() {
      // What each endpoint received, in the order the events happened (for --compare).
      for (const hook of hooks) {
        const events = hook
          .events()
          .sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.delivery.seq - b.delivery.seq);
        services.recorder.addEvents(
          check.id,
          events.map((event) => event.type),
        );
      }
      for (const step of undo.reverse()) {
        try {
          await step();
        } catch {
          // A clean-up that fails leaves an object of the kit's own behind; the check's verdict stands.
        }
      }
    },
  };
}

export function formatMs(ms: number): string {
  if (ms % 3600_000 === 0) return `${ms / 3600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** Fails unless `answer` is a 2xx; returns its JSON object body. */
export function okBody(answer: Answer, what: string): Record<string, unknown> {
  if (answer.status < 200 || answer.status > 299)
    fail(
      `${what}: ${answer.method} ${answer.path} answered ${answer.status}`,
      '2xx',
      answer.text.slice(0, 300),
      answer,
    );
  const body = answer.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    fail(`${what}: the body is not a JSON object`, 'a JSON object', answer.text.slice(0, 300), answer);
  return body as Record<string, unknown>;
}

/**
 * Partners the kit makes live an hour at most (a sandbox that knows lifetimes removes them even
 * if the run is killed) and are deleted when their check ends; a target without
 * `DELETE /sandbox/partners/{id}` keeps them, and the kit says nothing of it.
 */
export const KIT_PARTNER_LIFETIME_S = 3600;

async function removePartner(creator: PartnerApi, id: string): Promise<void> {
  await creator.call('DELETE', `/sandbox/partners/${encodeURIComponent(id)}`).catch(() => undefined);
}
