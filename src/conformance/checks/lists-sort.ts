// Sorting (GET /customers: `sort` created_at | updated_at | name, `order` asc | desc, default
// created_at desc; "Limits") and filters of the offer lists (`status`).
import { availableOffer } from '../flows/credit.js';
import { activeCustomer } from '../flows/customers.js';
import type { Check, CheckContext } from '../types.js';
import { expectEqual, expectStatus, expectTrue, skip } from '../verdict.js';
import { makeCustomers } from './list-subjects.js';
import { ownOrder, page, walk } from './lists.js';

const SPEC = 'Endpoints › Customers › GET /customers; Limits';
const byId = (item: Record<string, unknown>) => item.id;

/** The kit's customers as listed with `query`, walking at most 10 pages of 100. */
async function listed(
  ctx: CheckContext,
  own: string[],
  query: Record<string, string>,
  limit = 100,
): Promise<unknown[]> {
  const api = await ctx.partner();
  const ids = await walk(api, { path: '/customers', ids: own }, byId, limit, query, 10);
  const found = ownOrder(ids, own);
  if (found.length < own.length)
    skip("the kit's customers are not within the first 10 pages of this partner's list");
  return found;
}

function nonDecreasing(values: string[]): boolean {
  return values.every((value, i) => i === 0 || Date.parse(values[i - 1] as string) <= Date.parse(value));
}

/** The order by a time field says something only when the kit's writes got different times. */
async function distinctTimes(
  ctx: CheckContext,
  own: string[],
  field: 'created_at' | 'updated_at',
): Promise<void> {
  const api = await ctx.partner();
  const times = new Set<string>();
  for (const id of own)
    times.add(String(((await api.call('GET', `/customers/${id}`)).body as Record<string, unknown>)[field]));
  if (times.size < own.length)
    skip(
      `the target gave the kit's customers equal ${field} (its clock did not move between them): their order is not the spec's to say`,
    );
}

const sortCheck = (id: string, title: string, run: (ctx: CheckContext) => Promise<void>): Check => ({
  id: `lists.customers.${id}`,
  title,
  spec: SPEC,
  needs: 'black-box',
  run,
});

export const SORT_CHECKS: Check[] = [
  sortCheck('sort-default', 'GET /customers is newest first by default (created_at desc)', async (ctx) => {
    const own = await makeCustomers(ctx, 3, undefined, true);
    await distinctTimes(ctx, own, 'created_at');
    const { data, answer } = await page(
      await ctx.partner(),
      { path: '/customers', ids: own },
      { limit: 100 },
    );
    const times = data.map((item) => String(item.created_at));
    expectTrue(
      nonDecreasing([...times].reverse()),
      'the default order is not created_at descending',
      'created_at desc',
      times.slice(0, 10),
      answer,
    );
    expectEqual(
      ownOrder(data.map(byId), own),
      [...own].reverse(),
      "the kit's customers, newest first",
      answer,
    );
  }),
  sortCheck('sort-asc', 'order=asc lists customers oldest first', async (ctx) => {
    const own = await makeCustomers(ctx, 3, undefined, true);
    await distinctTimes(ctx, own, 'created_at');
    expectEqual(await listed(ctx, own, { order: 'asc' }), own, "the kit's customers with order=asc");
  }),
  sortCheck('sort-updated-at', 'sort=updated_at lists the most recently updated first', async (ctx) => {
    const own = await makeCustomers(ctx, 3, undefined, true);
    if (ctx.facts.mode === 'controlled') await ctx.advance('1s');
    else await new Promise((r) => setTimeout(r, 15));
    const oldest = own[0] as string;
    expectStatus(
      await (await ctx.partner()).call('PATCH', `/customers/${oldest}`, {
        body: { name: 'Conformance Touched' },
      }),
      200,
      'PATCH',
    );
    await distinctTimes(ctx, [own[2] as string, oldest], 'updated_at');
    const order = await listed(ctx, own, { sort: 'updated_at' });
    expectEqual(order[0], oldest, 'the customer updated last comes first with sort=updated_at');
  }),
  sortCheck('sort-name', 'sort=name&order=asc lists customers by name', async (ctx) => {
    const names = ['sort-c', 'sort-a', 'sort-b'];
    const own = await makeCustomers(ctx, 3, names, true);
    const expected = [own[1], own[2], own[0]];
    expectEqual(
      await listed(ctx, own, { sort: 'name', order: 'asc' }),
      expected,
      "the kit's customers by name (Customer sort-a, -b, -c)",
    );
    expectEqual(
      await listed(ctx, own, { sort: 'name', order: 'desc' }),
      [...expected].reverse(),
      'and with order=desc',
    );
  }),
  sortCheck('cursor-follows-sort', 'starting_after pages follow the selected sort order', async (ctx) => {
    const own = await makeCustomers(ctx, 4, ['cursor-d', 'cursor-b', 'cursor-a', 'cursor-c'], true);
    const one = await listed(ctx, own, { sort: 'name', order: 'asc' });
    const paged = await listed(ctx, own, { sort: 'name', order: 'asc' }, 1);
    expectEqual(paged, one, 'pages of one customer, sorted by name, against one page of 100');
    expectEqual(one, [own[2], own[1], own[3], own[0]], 'the name order');
  }),
  ...(['credit-offers', 'customer-credit-offers'] as const).map(
    (name): Check => ({
      id: `lists.${name}.filter-status`,
      title: `${name === 'credit-offers' ? 'GET /credit-offers' : 'GET /customers/{id}/credit-offers'}?status= lists only offers in that status`,
      spec:
        name === 'credit-offers'
          ? 'Endpoints › Credit offers › GET /credit-offers'
          : 'Endpoints › Credit offers › GET /customers/{customer_id}/credit-offers',
      needs: 'controlled',
      async run(ctx) {
        const customer = await activeCustomer(ctx);
        const first = await availableOffer(ctx, customer.id);
        await ctx.control('POST', `/sandbox/credit-offers/${String(first.id)}/expire`);
        await ctx.control('POST', `/sandbox/customers/${customer.id}/credit-offers`, {});
        const list =
          name === 'credit-offers'
            ? { path: '/credit-offers', query: { customer_id: customer.id }, ids: [] }
            : { path: `/customers/${customer.id}/credit-offers`, ids: [] };
        const api = await ctx.partner();
        for (const status of ['expired', 'available', 'accepted']) {
          const { data, answer } = await page(api, list, { status });
          const others = data.filter((offer) => offer.status !== status);
          expectEqual(others, [], `offers that are not ${status} with status=${status}`, answer);
          if (status !== 'accepted')
            expectTrue(
              data.length === 1,
              `status=${status} misses the customer's ${status} offer`,
              1,
              data.length,
              answer,
            );
        }
      },
    }),
  ),
];
