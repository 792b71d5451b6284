import { byField, GroupIndex, type RowOrder, SortedIndex, UniqueIndex } from './indexes.js';
import type { BiometricsSessionRecord, CustomerRecord } from './records.js';
import type { Table } from './table.js';

/** The orders `GET /customers` can sort by. */
export type CustomerSort = 'created_at' | 'updated_at' | 'name';
export const CUSTOMER_SORTS: readonly CustomerSort[] = ['created_at', 'updated_at', 'name'];

/**
 * Names sort case- and accent-insensitively ("álvaro" next to "Alvaro", before "bruno"), then by
 * the exact text, then by insertion; customers without a name come first in ascending order.
 */
export const byCustomerName: RowOrder<CustomerRecord> = (a, b) => nameOrder(a, b, nameKey(b.name));
byCustomerName.against = (b) => {
  const kb = nameKey(b.name);
  return (a) => nameOrder(a, b, kb);
};

/** `byCustomerName(a, b)` with `b`'s name key `kb` already worked out. */
function nameOrder(a: CustomerRecord, b: CustomerRecord, kb: string): number {
  const ra = a.name ?? '';
  const rb = b.name ?? '';
  // The same text has the same key: only the insertion order is left to compare.
  if (ra === rb) return a.seq - b.seq;
  const ka = nameKey(a.name);
  if (ka !== kb) return ka < kb ? -1 : 1;
  return ra < rb ? -1 : 1;
}

export const CUSTOMER_ORDERS: Record<CustomerSort, RowOrder<CustomerRecord>> = {
  created_at: byField((r) => r.created_at),
  updated_at: byField((r) => r.updated_at),
  name: byCustomerName,
};

/** The most name keys remembered: valid names have at most 200 characters, so at most ~3 MB. */
export const NAME_KEYS_KEPT = 4096;
const nameKeys = new Map<string, string>();

/**
 * A name without accents or case. A sorted insert compares the new row with a dozen others in
 * each of two lists, and normalising costs about 1 µs for a name with accents (most Brazilian
 * names), so keys are remembered; the cache is emptied when full (names repeat within a partner's
 * lists, so it refills with the ones in use).
 */
export function nameKey(name: string | null): string {
  const text = name ?? '';
  let key = nameKeys.get(text);
  if (key === undefined) {
    key = text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    if (text.length <= 200) {
      if (nameKeys.size >= NAME_KEYS_KEPT) nameKeys.clear();
      nameKeys.set(text, key);
    }
  }
  return key;
}

/** Name keys remembered now (tests). */
export function nameKeysKept(): number {
  return nameKeys.size;
}

/** Sorted lists for one order: the partner's whole list and the list per partner+status. */
export interface CustomerSortedLists {
  all: SortedIndex<CustomerRecord>;
  byStatus: SortedIndex<CustomerRecord>;
}

/** The indexes the customer queries need, registered on the customers table. */
export function customerIndexes(table: Table<CustomerRecord>) {
  const sorted = {} as Record<CustomerSort, CustomerSortedLists>;
  for (const sort of CUSTOMER_SORTS) {
    sorted[sort] = {
      all: table.index(new SortedIndex<CustomerRecord>((r) => r.partner_id, CUSTOMER_ORDERS[sort])),
      byStatus: table.index(
        new SortedIndex<CustomerRecord>((r) => `${r.partner_id}|${r.status}`, CUSTOMER_ORDERS[sort]),
      ),
    };
  }
  return {
    sorted,
    /** Key `${partner_id}|${cpf}` (11 digits). */
    byCpf: table.index(new UniqueIndex<CustomerRecord>((r) => `${r.partner_id}|${r.cpf}`)),
    /** Key `${partner_id}|${cnpj}` (normalized). */
    byCnpj: table.index(
      new UniqueIndex<CustomerRecord>((r) => (r.cnpj === null ? undefined : `${r.partner_id}|${r.cnpj}`)),
    ),
    /** Key `${partner_id}|${external_id}`; external ids need not be unique. */
    byExternalId: table.index(
      new GroupIndex<CustomerRecord>((r) =>
        r.external_id === null ? undefined : `${r.partner_id}|${r.external_id}`,
      ),
    ),
  };
}

/** Biometrics sessions by token hash (the hosted page's lookup) and by customer (control calls). */
export function biometricsSessionIndexes(table: Table<BiometricsSessionRecord>) {
  return {
    byTokenHash: table.index(new UniqueIndex<BiometricsSessionRecord>((r) => r.token_hash)),
    byCustomer: table.index(new GroupIndex<BiometricsSessionRecord>((r) => r.customer_id)),
  };
}
