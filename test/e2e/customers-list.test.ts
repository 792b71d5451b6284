import { describe, expect, it } from 'vitest';
import { generateCpf } from '../../src/finance/cpf.js';
import { advance, type CustomerBody, createCustomer, submitAllKyc } from '../support/customers.js';
import { createTestSandbox, newPartnerToken, type TestSandbox } from '../support/sandbox.js';

type Page = { data: CustomerBody[]; has_more: boolean };

const cpfOf = (k: number) => generateCpf(`10000000${k}`);

/**
 * Eight customers c0..c7 created one second apart, then c5, c0 (same second) and c2 updated.
 * Names exercise case, accents, a missing name and exact ties.
 */
async function dataset(sandbox: TestSandbox) {
  const names = ['Bruno', 'ana', 'Álvaro', null, 'Ana', 'bruno', 'Carla', 'Carla'];
  const external = [null, 'grp', null, null, 'grp', null, 'grp', null];
  const c: string[] = [];
  for (const [k, name] of names.entries()) {
    const customer = await createCustomer(sandbox, { cpf: cpfOf(k), name, external_id: external[k] });
    c.push(customer.id);
    await advance(sandbox, '1s');
  }
  await advance(sandbox, '2s'); // t=10
  await sandbox.json('PATCH', `/v3/customers/${c[2]}`, { body: { email: 'a@example.com' } });
  await advance(sandbox, '1s'); // t=11
  await sandbox.json('PATCH', `/v3/customers/${c[5]}`, { body: { email: 'b@example.com' } });
  await sandbox.json('PATCH', `/v3/customers/${c[0]}`, { body: { email: 'c@example.com' } });
  const ids = (...k: number[]) => k.map((n) => c[n] as string);
  return {
    c,
    asc: {
      created_at: ids(0, 1, 2, 3, 4, 5, 6, 7),
      // Unchanged ones keep updated_at = created_at; c0 and c5 tie at t=11 and break by creation.
      updated_at: ids(1, 3, 4, 6, 7, 2, 0, 5),
      // No name first; case and accents folded ("Álvaro" < "ana"); "Ana" before "ana"; ties by creation.
      name: ids(3, 2, 4, 1, 0, 5, 6, 7),
    },
  };
}

async function page(sandbox: TestSandbox, query: string): Promise<Page> {
  const res = await sandbox.json<Page>('GET', `/v3/customers?${query}`);
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe('GET /v3/customers', () => {
  it('defaults to created_at desc, limit 25', async () => {
    const sandbox = createTestSandbox();
    const { asc } = await dataset(sandbox);
    const res = await page(sandbox, '');
    expect(res.data.map((c) => c.id)).toEqual([...asc.created_at].reverse());
    expect(res.has_more).toBe(false);
  });

  it('sorts by every order both ways, and the cursor continues after every position', async () => {
    const sandbox = createTestSandbox();
    const { asc } = await dataset(sandbox);
    for (const sort of ['created_at', 'updated_at', 'name'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const expected = order === 'asc' ? asc[sort] : [...asc[sort]].reverse();
        const full = await page(sandbox, `sort=${sort}&order=${order}`);
        expect(
          full.data.map((c) => c.id),
          `${sort} ${order}`,
        ).toEqual(expected);
        for (let at = 0; at < expected.length; at++) {
          const next = await page(
            sandbox,
            `sort=${sort}&order=${order}&limit=3&starting_after=${expected[at]}`,
          );
          expect(
            next.data.map((c) => c.id),
            `${sort} ${order} after #${at}`,
          ).toEqual(expected.slice(at + 1, at + 4));
          expect(next.has_more, `${sort} ${order} after #${at}`).toBe(at + 4 < expected.length);
        }
        // Walking page by page with every page size yields the whole list once.
        for (let limit = 1; limit <= expected.length; limit++) {
          const seen: string[] = [];
          let cursor = '';
          for (;;) {
            const res = await page(sandbox, `sort=${sort}&order=${order}&limit=${limit}${cursor}`);
            seen.push(...res.data.map((c) => c.id));
            if (!res.has_more) break;
            cursor = `&starting_after=${res.data.at(-1)?.id}`;
          }
          expect(seen, `${sort} ${order} limit ${limit}`).toEqual(expected);
        }
      }
    }
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=2.5', 'limit'],
    ['sort=email', 'sort'],
    ['order=up', 'order'],
    ['status=blocked', 'status'],
    ['cpf=123', 'cpf'],
    ['cpf=529.982.247-26', 'cpf'],
  ])('answers 400 with the param for %s', async (query, param) => {
    const sandbox = createTestSandbox();
    const res = await sandbox.json('GET', `/v3/customers?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, param });
  });

  it('accepts limit 1 and 100', async () => {
    const sandbox = createTestSandbox();
    const { asc } = await dataset(sandbox);
    expect((await page(sandbox, 'limit=1')).data).toHaveLength(1);
    expect((await page(sandbox, 'limit=1')).has_more).toBe(true);
    expect((await page(sandbox, 'limit=100')).data).toHaveLength(asc.created_at.length);
  });

  it('answers 400 for a cursor that is not in the list', async () => {
    const sandbox = createTestSandbox();
    const { c } = await dataset(sandbox);
    const other = await newPartnerToken(sandbox);
    const theirs = await createCustomer(sandbox, {}, other.token);
    for (const query of [
      'starting_after=cust_00000000000000000000000000000000',
      `starting_after=${theirs.id}`,
      `external_id=grp&starting_after=${c[0]}`,
      `status=active&starting_after=${c[0]}`,
      `cpf=${cpfOf(1)}&starting_after=${c[0]}`,
    ]) {
      const res = await sandbox.json('GET', `/v3/customers?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ code: 'invalid_cursor', param: 'starting_after' });
    }
  });

  it('filters by external_id and cpf (bare or masked), with sort and cursor', async () => {
    const sandbox = createTestSandbox();
    const { c } = await dataset(sandbox);
    const group = await page(sandbox, 'external_id=grp&sort=name&order=asc');
    expect(group.data.map((x) => x.id)).toEqual([c[4], c[1], c[6]]);
    const after = await page(sandbox, `external_id=grp&sort=name&order=asc&limit=1&starting_after=${c[4]}`);
    expect(after).toEqual({ data: [expect.objectContaining({ id: c[1] })], has_more: true });
    expect((await page(sandbox, 'external_id=none')).data).toEqual([]);

    const bare = cpfOf(3);
    const masked = `${bare.slice(0, 3)}.${bare.slice(3, 6)}.${bare.slice(6, 9)}-${bare.slice(9)}`;
    expect((await page(sandbox, `cpf=${bare}`)).data.map((x) => x.id)).toEqual([c[3]]);
    expect((await page(sandbox, `cpf=${encodeURIComponent(masked)}`)).data.map((x) => x.id)).toEqual([c[3]]);
    expect(await page(sandbox, `cpf=${generateCpf('123456789')}`)).toEqual({ data: [], has_more: false });
    expect((await page(sandbox, `cpf=${bare}&external_id=grp`)).data).toEqual([]);
    expect((await page(sandbox, `cpf=${cpfOf(4)}&external_id=grp`)).data.map((x) => x.id)).toEqual([c[4]]);
  });

  it('filters by status, combined with sort, order and cursor', async () => {
    const sandbox = createTestSandbox();
    const pending = await createCustomer(sandbox, { cpf: cpfOf(0), name: 'P' });
    const reviewed = await createCustomer(sandbox, { cpf: cpfOf(1), name: 'R' });
    const active = await createCustomer(sandbox, { cpf: cpfOf(2), name: 'A' });
    const reviewed2 = await createCustomer(sandbox, { cpf: cpfOf(3), name: 'Q' });
    await submitAllKyc(sandbox, active.id);
    await advance(sandbox, '10s');
    await submitAllKyc(sandbox, reviewed.id);
    await submitAllKyc(sandbox, reviewed2.id);
    expect((await page(sandbox, 'status=active')).data.map((x) => x.id)).toEqual([active.id]);
    expect((await page(sandbox, 'status=pending_kyc')).data.map((x) => x.id)).toEqual([pending.id]);
    const review = await page(sandbox, 'status=under_review&sort=name&order=asc');
    expect(review.data.map((x) => x.id)).toEqual([reviewed2.id, reviewed.id]);
    expect(review.data.every((x) => x.status === 'under_review')).toBe(true);
    const next = await page(
      sandbox,
      `status=under_review&sort=name&order=asc&starting_after=${reviewed2.id}`,
    );
    expect(next.data.map((x) => x.id)).toEqual([reviewed.id]);
    expect(
      (await page(sandbox, 'status=under_review&sort=updated_at&order=desc')).data.map((x) => x.id),
    ).toEqual([reviewed2.id, reviewed.id]);
    // Moving status moves the customer between the filtered lists.
    await advance(sandbox, '10s');
    expect((await page(sandbox, 'status=under_review')).data).toEqual([]);
    expect((await page(sandbox, 'status=active&sort=created_at&order=asc')).data.map((x) => x.id)).toEqual([
      reviewed.id,
      active.id,
      reviewed2.id,
    ]);
  });

  it('lists only the calling partner’s customers, empty as {data: [], has_more: false}', async () => {
    const sandbox = createTestSandbox();
    await dataset(sandbox);
    const other = await newPartnerToken(sandbox);
    const res = await sandbox.json('GET', '/v3/customers', { token: other.token });
    expect(res.body).toEqual({ data: [], has_more: false });
  });
});
