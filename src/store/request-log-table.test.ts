import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INSTANCE_LOG_ENTRIES, RequestLogTable } from './request-log-table.js';
import type { RequestRecord } from './request-records.js';

let seq = 0;

function request(partner: string, overrides: Partial<RequestRecord> = {}): RequestRecord {
  seq += 1;
  return {
    id: `req_${seq.toString(16).padStart(32, '0')}`,
    seq,
    partner_id: partner,
    method: seq % 3 === 0 ? 'POST' : 'GET',
    path: `/v3/customers/cust_${seq}`,
    query: seq % 4 === 0 ? `limit=${seq}&starting_after=cust_é${seq}` : null,
    status: seq % 5 === 0 ? 404 : 200,
    duration_cms: seq * 7,
    idempotency_key: seq % 3 === 0 ? `key-${seq}` : null,
    idempotent_replayed: seq % 6 === 0,
    error_code: seq % 5 === 0 ? 'not_found' : null,
    authorization: 'Bearer [redacted]',
    content_type: seq % 3 === 0 ? 'application/json' : null,
    user_agent: seq % 2 === 0 ? 'partner-app/1.0' : null,
    request_body: seq % 3 === 0 ? { name: `Cliente ${seq}`, tags: ['a', seq] } : null,
    response_text: seq % 7 === 0 ? null : JSON.stringify({ id: `cust_${seq}`, name: 'João 🚀' }),
    created_at_ms: 1_700_000_000_000 + seq,
    ...overrides,
  };
}

const PARTNERS = ['ptn_a', 'ptn_b', 'ptn_c'];

type Op =
  | { kind: 'append'; partner: number; limit: number }
  | { kind: 'appendSoon'; partner: number; limit: number }
  | { kind: 'flush' }
  | { kind: 'read' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      partner: fc.nat(2),
      limit: fc.integer({ min: 1, max: 6 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('appendSoon' as const),
      partner: fc.nat(2),
      limit: fc.integer({ min: 1, max: 6 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'flush' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'read' as const }) },
);

describe('RequestLogTable', () => {
  it('holds what a plain per-partner list trimmed to the limit holds, and its change sets rebuild it', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const deferred: (() => void)[] = [];
        const table = new RequestLogTable({ defer: (run) => deferred.push(run) });
        table.tracking = true;
        const replica = new RequestLogTable();
        const model = new Map<string, RequestRecord[]>();
        const dropped: string[] = [];
        const add = (row: RequestRecord, limit: number) => {
          const rows = model.get(row.partner_id) ?? [];
          rows.push(row);
          while (rows.length > limit) dropped.push((rows.shift() as RequestRecord).id);
          model.set(row.partner_id, rows);
        };
        for (const step of ops) {
          if (step.kind === 'append' || step.kind === 'appendSoon') {
            const row = request(PARTNERS[step.partner] as string);
            if (step.kind === 'append') table.append(row, step.limit);
            else table.appendSoon(row, step.limit);
            add(row, step.limit);
          } else if (step.kind === 'flush') {
            replica.apply(table.takeChanges());
          } else {
            // The deferred run may come after reads: they must not depend on it.
            for (const run of deferred.splice(0)) run();
          }
          // Every read sees every append, deferred ones included.
          for (const partner of PARTNERS) {
            expect(table.ring(partner)?.rows() ?? []).toEqual(model.get(partner) ?? []);
          }
        }
        const held = [...model.values()].flat();
        expect(table.size).toBe(held.length);
        for (const row of held) expect(table.get(row.id)).toEqual(row);
        for (const id of dropped) expect(table.get(id)).toBeUndefined();
        replica.apply(table.takeChanges());
        expect(sortBySeq(replica.dump())).toEqual(sortBySeq(table.dump()));
      }),
      { numRuns: 150 },
    );
  });

  it('applies deferred entries in one run at the end of the turn, in order, and before any read', () => {
    const deferred: (() => void)[] = [];
    const table = new RequestLogTable({ defer: (run) => deferred.push(run) });
    const first = request('ptn_a');
    const second = request('ptn_a');
    table.appendSoon(first, 10);
    table.appendSoon(second, 10);
    expect(deferred).toHaveLength(1); // one deferred run for the whole batch
    expect(
      table
        .ring('ptn_a')
        ?.rows()
        .map((row) => row.id),
    ).toEqual([first.id, second.id]);
    (deferred[0] as () => void)(); // already applied by the read: nothing twice
    expect(table.size).toBe(2);
    const third = request('ptn_a');
    table.appendSoon(third, 10);
    expect(deferred).toHaveLength(2);
    (deferred[1] as () => void)();
    expect(table.get(third.id)).toEqual(third);
    expect(table.size).toBe(3);
  });

  it('drops an entry still waiting for the end of the turn when its partner is evicted (a lost lease)', () => {
    const deferred: (() => void)[] = [];
    const table = new RequestLogTable({ defer: (run) => deferred.push(run) });
    table.tracking = true;
    const kept = request('ptn_a');
    const lost = request('ptn_b');
    table.appendSoon(kept, 10);
    table.appendSoon(lost, 10);
    table.evictPartner('ptn_b');
    (deferred[0] as () => void)();
    expect(table.get(lost.id)).toBeUndefined();
    expect(table.ring('ptn_b')).toBeUndefined();
    expect(table.get(kept.id)).toEqual(kept);
    const changes = table.takeChanges();
    expect(changes.upserts.map((row) => (row as { id: string }).id)).toEqual([kept.id]);
    expect(changes.deletes).toEqual([]);
  });

  it('gives back paths, queries and answers in any script exactly, however they split', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 12 }),
        fc.option(fc.string({ unit: 'grapheme', maxLength: 12 })),
        fc.option(fc.string({ unit: 'grapheme', maxLength: 40 })),
        (tail, query, answer) => {
          const table = new RequestLogTable();
          const row = request('ptn_a', { path: `/v3/customers/${tail}`, query, response_text: answer });
          table.append(row, 10);
          expect(table.get(row.id)).toEqual(row);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('stores answers as sent and shows them through the filter, in the API and in change sets alike', () => {
    const table = new RequestLogTable({ showAnswer: (text) => text.replace('s3cr3t', '[redacted]') });
    table.tracking = true;
    const row = request('ptn_a', { response_text: '{"client_secret":"s3cr3t"}' });
    table.append(row, 10);
    const shown = '{"client_secret":"[redacted]"}';
    expect(table.get(row.id)?.response_text).toBe(shown);
    expect(JSON.stringify(table.dump())).not.toContain('s3cr3t');
    expect(JSON.stringify(table.takeChanges())).not.toContain('s3cr3t');
  });

  it('keeps the newer entry when an id repeats, and writes it once', () => {
    const table = new RequestLogTable();
    table.tracking = true;
    const older = request('ptn_a');
    table.append(older, 10);
    table.append(request('ptn_a'), 10);
    const newer = request('ptn_a', { id: older.id, path: '/v3/loans' });
    table.append(newer, 10);
    expect(table.get(older.id)?.path).toBe('/v3/loans');
    expect(table.ring('ptn_a')?.count).toBe(2);
    const changes = table.takeChanges();
    expect(changes.upserts.filter((row) => row.id === older.id)).toHaveLength(1);
    expect(changes.deletes).not.toContain(older.id);
  });

  it('loads rows in any order, trims a smaller limit on the next append, and evicts a partner silently', () => {
    const rows = Array.from({ length: 6 }, () => request('ptn_b'));
    const table = new RequestLogTable();
    table.load([...rows].reverse());
    expect(table.ring('ptn_b')?.rows()).toEqual(rows);
    table.tracking = true;
    const next = request('ptn_b');
    table.append(next, 3);
    expect(table.ring('ptn_b')?.rows()).toEqual([...rows.slice(4), next]);
    expect(table.takeChanges().deletes).toEqual(rows.slice(0, 4).map((row) => row.id));
    expect(table.evictPartner('ptn_b')).toBe(3);
    expect(table.get(next.id)).toBeUndefined();
    expect(table.takeChanges()).toEqual({ upserts: [], deletes: [] });
  });

  it('grows a ring past its first slots and keeps every field of every entry', () => {
    const table = new RequestLogTable();
    const rows = Array.from({ length: 1500 }, () => request('ptn_c'));
    for (const row of rows) table.append(row, 1000);
    expect(table.ring('ptn_c')?.rows()).toEqual(rows.slice(500));
  });
});

function sortBySeq(rows: RequestRecord[]): RequestRecord[] {
  return [...rows].sort((a, b) => a.seq - b.seq);
}

describe('the instance-wide bound', () => {
  it(`holds at most ${INSTANCE_LOG_ENTRIES} entries; the partner with the most loses its oldest`, () => {
    const table = new RequestLogTable();
    const partners = Array.from({ length: 12 }, (_, i) => `ptn_bound_${i}`);
    for (let round = 0; round < 1000; round++) {
      for (const partner of partners) table.append(request(partner), 1000);
    }
    expect(table.size).toBe(INSTANCE_LOG_ENTRIES);
    // Fair: every partner keeps a share, none was emptied to make room.
    for (const partner of partners) {
      const count = table.ring(partner)?.count ?? 0;
      expect(count).toBeGreaterThanOrEqual(Math.floor(INSTANCE_LOG_ENTRIES / partners.length) - 1);
    }
    // A newcomer still gets its entries logged.
    table.append(request('ptn_new'), 1000);
    expect(table.ring('ptn_new')?.count).toBe(1);
    expect(table.size).toBe(INSTANCE_LOG_ENTRIES);
  });
});
