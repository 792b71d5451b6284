// The conformance kit against altered targets: a proxy in front of the sandbox changes one
// behaviour at a time, and the check that owns that rule must fail — while the same checks pass
// through the unaltered proxy (the kit does not notice a proxy).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import {
  type Alteration,
  editJson,
  type ProxiedAnswer,
  type ProxiedRequest,
  startAlteringProxy,
} from '../support/altering-proxy.js';
import { idsWith, runKit } from '../support/conformance.js';
import { startQuietServer } from '../support/test-server.js';

let sandbox: RunningServer;
beforeAll(async () => {
  sandbox = await startQuietServer();
});
afterAll(async () => {
  await sandbox?.close();
});

const path = (request: ProxiedRequest) => request.url.split('?', 1)[0] as string;
const query = (request: ProxiedRequest) => new URLSearchParams(request.url.split('?')[1] ?? '');
const isCustomerAnswer = (request: ProxiedRequest) =>
  /^\/v3\/customers(\/cust_[0-9a-f]+)?$/.test(path(request));
const plusCent = (value: unknown) => (Number(value) + 0.01).toFixed(2);

/** An alteration of the JSON answers to requests that `match`. */
function jsonAnswers(
  match: (request: ProxiedRequest) => boolean,
  edit: (body: Record<string, unknown>) => void,
): Alteration {
  return {
    answer(request, answer) {
      if (match(request)) editJson(answer, edit);
    },
  };
}

/** An alteration of the answers to requests that `match` (status, headers). */
function answers(
  match: (request: ProxiedRequest) => boolean,
  edit: (answer: ProxiedAnswer) => void,
): Alteration {
  return {
    answer(request, answer) {
      if (match(request)) edit(answer);
    },
  };
}

const newCustomer = (request: ProxiedRequest) =>
  request.method === 'POST' && path(request) === '/v3/customers';
const simulation = (request: ProxiedRequest) => /\/simulations$/.test(path(request));
const customerList = (without: string) => (request: ProxiedRequest) =>
  request.method === 'GET' && path(request) === '/v3/customers' && !query(request).has(without);

/** One changed behaviour each, and the check that must catch it. */
const ALTERATIONS: Array<{
  name: string;
  catches: string;
  alteration: Alteration;
  /** For an absence: the sandbox here delivers at once, so the kit need not wait its 30 s. */
  deliveryWait?: string;
}> = [
  {
    name: 'a field renamed (Customer.trading_name → tradingName)',
    catches: 'customers.create.fields',
    alteration: jsonAnswers(isCustomerAnswer, (body) => {
      body.tradingName = body.trading_name;
      delete body.trading_name;
    }),
  },
  {
    name: 'a status code (POST /customers answers 200 for a new customer)',
    catches: 'customers.create.status',
    alteration: answers(newCustomer, (answer) => {
      if (answer.status === 201) answer.status = 200;
    }),
  },
  {
    name: 'a header (no Location on POST /customers)',
    catches: 'customers.create.location',
    alteration: answers(newCustomer, (answer) => {
      delete answer.headers.location;
    }),
  },
  {
    name: 'one cent of money (iof_amount + 0.01)',
    catches: 'credit.simulation.iof-individual',
    alteration: jsonAnswers(simulation, (body) => {
      body.iof_amount = plusCent(body.iof_amount);
    }),
  },
  {
    name: 'one hundredth of the CET (cet_percentage + 0.01)',
    catches: 'credit.simulation.cet',
    alteration: jsonAnswers(simulation, (body) => {
      body.cet_percentage = Number(body.cet_percentage) + 0.01;
    }),
  },
  {
    name: 'the default page size (20 instead of 25)',
    catches: 'lists.customers.default-limit',
    alteration: jsonAnswers(customerList('limit'), (body) => {
      body.data = (body.data as unknown[]).slice(0, 20);
    }),
  },
  {
    name: 'the default order (oldest first)',
    catches: 'lists.customers.sort-default',
    alteration: jsonAnswers(customerList('order'), (body) => {
      (body.data as unknown[]).reverse();
    }),
  },
  {
    name: 'has_more always false',
    catches: 'lists.webhook-endpoints.limit',
    alteration: jsonAnswers(
      (request) => request.method === 'GET' && path(request) === '/v3/webhooks/endpoints',
      (body) => {
        body.has_more = false;
      },
    ),
  },
  {
    name: 'idempotency (the Idempotency-Key header ignored)',
    catches: 'idempotency.customers.replay',
    alteration: {
      request(request) {
        delete request.headers['idempotency-key'];
      },
    },
  },
  {
    name: 'the problem format (404 as application/json)',
    catches: 'customers.get.unknown',
    alteration: answers(
      () => true,
      (answer) => {
        if (answer.status === 404) answer.headers['content-type'] = 'application/json';
      },
    ),
  },
  {
    name: 'an enum value (customer status pending_kyc → pending)',
    catches: 'customers.create.pending-kyc',
    alteration: jsonAnswers(isCustomerAnswer, (body) => {
      if (body.status === 'pending_kyc') body.status = 'pending';
    }),
  },
  {
    name: 'the token lifetime (expires_in 7200)',
    catches: 'auth.token.lifetime',
    alteration: jsonAnswers(
      (request) => path(request) === '/v3/auth/token',
      (body) => {
        body.expires_in = 7200;
      },
    ),
  },
  {
    name: 'a secret (whsec_ → sec_ on the new endpoint)',
    catches: 'webhooks.endpoints.create',
    alteration: jsonAnswers(
      (request) => request.method === 'POST' && path(request) === '/v3/webhooks/endpoints',
      (body) => {
        body.secret = String(body.secret).replace('whsec_', 'sec_');
      },
    ),
  },
  {
    name: 'a signature (one character of webhook-signature changed)',
    catches: 'webhooks.signatures.verify',
    alteration: {
      delivery: (delivery) => {
        const signature = delivery.headers['webhook-signature'] ?? '';
        const at = signature.indexOf(',') + 2;
        delivery.headers['webhook-signature'] =
          `${signature.slice(0, at)}${signature[at] === 'A' ? 'B' : 'A'}${signature.slice(at + 1)}`;
        return delivery;
      },
    },
  },
  {
    name: 'the rotation grace (only the new secret signs)',
    catches: 'webhooks.signatures.rotation-grace',
    alteration: {
      delivery: (delivery) => {
        delivery.headers['webhook-signature'] = (delivery.headers['webhook-signature'] ?? '').split(
          ' ',
        )[0] as string;
        return delivery;
      },
    },
  },
  {
    name: 'a missing event (customer.created never delivered)',
    catches: 'webhooks.events.customer.created',
    deliveryWait: '2s',
    alteration: {
      delivery: (delivery) => (delivery.body.includes('"type":"customer.created"') ? null : delivery),
    },
  },
  {
    name: 'an event payload (loan.created with status created)',
    catches: 'webhooks.events.loan.created',
    alteration: {
      delivery: (delivery) => {
        if (delivery.body.includes('"type":"loan.created"')) {
          delivery.body = delivery.body.replace('"status":"processing"', '"status":"created"');
        }
        return delivery;
      },
    },
  },
];

describe('the conformance kit against altered targets', () => {
  it('has at least 12 different alterations', () => {
    expect(new Set(ALTERATIONS.map((a) => a.name)).size).toBeGreaterThanOrEqual(12);
  });

  for (const { name, catches, alteration, deliveryWait } of ALTERATIONS) {
    it(`catches ${name} in ${catches}`, async () => {
      const proxy = await startAlteringProxy(sandbox.url, { alteration });
      try {
        const { code, report } = await runKit(proxy.url, { only: [catches], timeout: '3s', deliveryWait });
        const check = report.checks.find((c) => c.id === catches);
        expect(check?.status, JSON.stringify(check)).toBe('fail');
        if (deliveryWait) expect(check?.reason).toContain('within 2000 ms');
        expect(check?.reason).toBeTruthy();
        expect(code).toBe(1);
      } finally {
        await proxy.close();
      }
    });
  }

  it('passes the same checks through the unaltered proxy', async () => {
    const proxy = await startAlteringProxy(sandbox.url);
    try {
      const { code, report } = await runKit(proxy.url, {
        only: ALTERATIONS.map((a) => a.catches),
        timeout: '3s',
      });
      expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
      expect(idsWith(report, 'pass').sort()).toEqual(ALTERATIONS.map((a) => a.catches).sort());
      expect(code).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});
