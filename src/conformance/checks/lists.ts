// The list conventions on every list ("Endpoints › Conventions", "Limits"): the envelope, the
// default page of 25, `limit` 1..100, forward-only `starting_after` pages, the empty collection.
import type { Answer, PartnerApi } from '../http.js';
import { ListEnvelope } from '../spec/shapes.js';
import { expectShape } from '../spec/validate.js';
import type { CheckContext } from '../types.js';
import { Departure, expectClientError, expectEqual, expectStatus, expectTrue, fail } from '../verdict.js';
import { type FilledList, type ListSubject, perSubject } from './list-subjects.js';
import { expectProblem } from './problems.js';

const SPEC = 'Endpoints › Conventions; Limits';

type Page = { data: Array<Record<string, unknown>>; has_more: boolean; answer: Answer };

export async function page(
  api: PartnerApi,
  list: FilledList,
  query: Record<string, string | number | undefined> = {},
): Promise<Page> {
  const answer = await api.call('GET', list.path, { query: { ...list.query, ...query } });
  expectStatus(answer, 200, `GET ${list.path}`);
  const body = expectShape(ListEnvelope, answer.body, 'list envelope {data, has_more}', answer);
  return { data: body.data as Array<Record<string, unknown>>, has_more: body.has_more, answer };
}

/**
 * Every item of the list, page by page (`limit`, `starting_after` = the last id), at most
 * `maxPages`; fails on an item seen twice.
 */
export async function walk(
  api: PartnerApi,
  list: FilledList,
  idOf: (item: Record<string, unknown>) => unknown,
  limit: number,
  extra: Record<string, string> = {},
  maxPages = 200,
): Promise<unknown[]> {
  const seen: unknown[] = [];
  let after: string | undefined;
  for (let n = 0; n < maxPages; n++) {
    const { data, has_more, answer } = await page(api, list, { ...extra, limit, starting_after: after });
    expectTrue(
      data.length <= limit,
      `a page holds more than limit=${limit} items`,
      `≤ ${limit}`,
      data.length,
      answer,
    );
    for (const item of data) {
      const id = idOf(item);
      if (seen.includes(id))
        fail(
          `${String(id)} came twice while paging forward with starting_after`,
          'each item once',
          `${String(id)} again`,
          answer,
        );
      seen.push(id);
    }
    if (!has_more) return seen;
    expectTrue(
      data.length > 0,
      'has_more is true on an empty page',
      'has_more false or items',
      data.length,
      answer,
    );
    after = String(idOf(data.at(-1) as Record<string, unknown>));
  }
  return seen;
}

/** The kit's own ids, in the order they appear in `ids`. */
export function ownOrder(ids: readonly unknown[], own: readonly string[]): unknown[] {
  return ids.filter((id) => own.includes(String(id)));
}

async function filled(
  ctx: CheckContext,
  subject: ListSubject,
  count: number,
): Promise<{ api: PartnerApi; list: FilledList }> {
  return { api: await ctx.partner(), list: await subject.make(ctx, count) };
}

export const LIST_CHECKS = [
  ...perSubject((subject) => ({
    id: `lists.${subject.name}.envelope`,
    title: `${subject.operation} answers {data: array, has_more: boolean}`,
    spec: SPEC,
    needs: subject.needsOne,
    async run(ctx) {
      const { api, list } = await filled(ctx, subject, 1);
      const { data, answer } = await page(api, list);
      expectTrue(
        data.some((item) => list.ids.includes(String(subject.idOf(item)))),
        'the list does not show the kit’s item',
        list.ids[0],
        data.map(subject.idOf),
        answer,
      );
    },
  })),
  ...perSubject((subject) => ({
    id: `lists.${subject.name}.default-limit`,
    title: `${subject.operation} answers 25 items by default when there are more`,
    spec: SPEC,
    needs: subject.needsMany,
    async run(ctx) {
      const { api, list } = await filled(ctx, subject, 26);
      const { data, has_more, answer } = await page(api, list);
      expectEqual(data.length, 25, 'items on a page without limit', answer);
      expectEqual(has_more, true, 'has_more with more than 25 items', answer);
    },
  })),
  ...perSubject((subject) => ({
    id: `lists.${subject.name}.limit`,
    title: `${subject.operation} takes limit 1..100 and refuses 0, 101 and what is not an integer (4xx problem)`,
    spec: SPEC,
    needs: subject.needsMany,
    async run(ctx) {
      const { api, list } = await filled(ctx, subject, 2);
      const one = await page(api, list, { limit: 1 });
      expectEqual(one.data.length, 1, 'items with limit=1', one.answer);
      expectEqual(one.has_more, true, 'has_more with limit=1 and two items', one.answer);
      await page(api, list, { limit: 100 });
      for (const limit of ['0', '101', '2.5', 'abc']) {
        const answer = await api.call('GET', list.path, { query: { ...list.query, limit } });
        expectClientError(answer, `limit=${limit}`);
        expectProblem(answer);
      }
    },
  })),
  ...perSubject((subject) => ({
    id: `lists.${subject.name}.pagination`,
    title: `${subject.operation} pages forward with starting_after, in the list's order, each item once`,
    spec: SPEC,
    needs: subject.needsMany,
    async run(ctx) {
      const { api, list } = await filled(ctx, subject, 5);
      const whole = (await page(api, list, { limit: 100 })).data.map(subject.idOf);
      // On a shared partner (black box) other checks add and delete items meanwhile: a cursor
      // deleted under the walk is refused, so a walk that met a 400 is walked once more.
      const paged = await walk(api, list, subject.idOf, 2, {}, 60).catch((error: unknown) => {
        const refused = error instanceof Departure && error.answer?.status === 400;
        if (ctx.facts.mode === 'black-box' && refused) return walk(api, list, subject.idOf, 2, {}, 60);
        throw error;
      });
      expectEqual(
        ownOrder(paged, list.ids),
        ownOrder(whole, list.ids),
        "the kit's items paged two at a time, in the order of one page of 100",
      );
      if (ctx.facts.mode === 'controlled') expectEqual(paged, whole, 'the paged list is the whole list');
    },
  })),
  ...perSubject((subject) => {
    const empty = subject.empty;
    if (!empty) return undefined;
    return {
      id: `lists.${subject.name}.empty`,
      title: `${subject.operation} answers an empty collection as data [] and has_more false`,
      spec: SPEC,
      needs: 'black-box' as const,
      async run(ctx: CheckContext) {
        const list = await empty(ctx);
        const { data, has_more, answer } = await page(await ctx.partner(), list);
        expectEqual(data, [], 'data of an empty collection', answer);
        expectEqual(has_more, false, 'has_more of an empty collection', answer);
      },
    };
  }),
];
