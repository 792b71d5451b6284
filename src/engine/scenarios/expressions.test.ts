// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario files write placeholders as ${…} inside plain strings
import { describe, expect, it } from 'vitest';
import { compare, evaluate, parseExpression } from './expressions.js';
import { ScenarioError } from './paths.js';
import type { Scope } from './scope.js';

const scope: Scope = {
  values: {
    params: { amount: '945.60', days: 30, name: 'Maria' },
    loan: {
      id: 'ln_1',
      status: 'overdue',
      net_amount: null,
      error: { code: 'disbursement_failed' },
      created_at: '2026-03-02T12:00:00.000Z',
    },
    txs: {
      data: [
        { installment_number: 1, status: 'paid', amount_due: '945.60', days_overdue: 0 },
        { installment_number: 2, status: 'overdue', amount_due: '945.60', days_overdue: 30 },
        { installment_number: 3, status: 'pending', amount_due: '945.60', days_overdue: 0 },
      ],
    },
    response: { status: 201, headers: { location: '/v3/loans/ln_1', 'idempotent-replayed': 'true' } },
  },
  random: () => 'random',
};

const holds = (text: string) => evaluate(parseExpression(text), scope).ok;

describe('expectations', () => {
  it('compares a path with a bare word, a quoted string, a number, null and booleans', () => {
    expect(holds('loan.status == overdue')).toBe(true);
    expect(holds('loan.status != overdue')).toBe(false);
    expect(holds("loan.status == 'overdue'")).toBe(true);
    expect(holds('loan.status == "pending"')).toBe(false);
    expect(holds('loan.net_amount == null')).toBe(true);
    expect(holds('loan.missing == null')).toBe(true);
    expect(holds('loan.error != null')).toBe(true);
    expect(holds('response.headers.idempotent-replayed == true')).toBe(true);
    expect(holds('response.status == 201')).toBe(true);
  });

  it('compares numbers and numeric strings as decimals, exactly', () => {
    expect(holds('txs.data[0].amount_due == 945.6')).toBe(true);
    expect(holds('txs.data[0].amount_due == params.amount')).toBe(true);
    expect(holds('txs.data[0].amount_due > 945.59')).toBe(true);
    expect(holds('txs.data[0].amount_due >= 945.60')).toBe(true);
    expect(holds('txs.data[0].amount_due < 945.60')).toBe(false);
    expect(holds('txs.data[0].amount_due <= 945.61')).toBe(true);
    expect(compare('==', '0.1', 0.1)).toBe(true);
    expect(compare('<', '9.99', '10.00')).toBe(true); // as text "9.99" > "10.00"; as decimals it is less
  });

  it('orders other strings as text, so ISO dates compare by time', () => {
    expect(holds('loan.created_at > 2026-03-01T23:59:59.999Z')).toBe(true);
    expect(holds('loan.created_at < "2026-03-02T12:00:00.001Z"')).toBe(true);
    expect(() => compare('>', { a: 1 }, 2)).toThrow(ScenarioError);
  });

  it('walks array indexes, negative indexes, selectors and length', () => {
    expect(holds('txs.data[1].status == overdue')).toBe(true);
    expect(holds('txs.data[-1].installment_number == 3')).toBe(true);
    expect(holds('txs.data[installment_number=2].days_overdue == params.days')).toBe(true);
    expect(holds('txs.data[status=pending].installment_number == 3')).toBe(true);
    expect(holds('txs.data[installment_number=${params.days}] == null')).toBe(true);
    expect(holds('txs.data.length == 3')).toBe(true);
    expect(holds('params.name.length == 5')).toBe(true);
  });

  it('fills placeholders inside quoted text and reads ${path} operands as paths', () => {
    expect(holds('response.headers.location == "/v3/loans/${loan.id}"')).toBe(true);
    expect(holds('${loan.status} == overdue')).toBe(true);
  });

  it('explains a failure with the values it found', () => {
    const verdict = evaluate(parseExpression('loan.status == active'), scope);
    expect(verdict).toEqual({
      ok: false,
      detail: 'expected loan.status == active, but loan.status is "overdue"',
    });
    const both = evaluate(parseExpression('txs.data[0].days_overdue > params.days'), scope);
    expect(both.detail).toBe(
      'expected txs.data[0].days_overdue > params.days, but txs.data[0].days_overdue is 0 and params.days is 30',
    );
    expect(evaluate(parseExpression('loan.status == overdue'), scope).detail).toBe(
      'loan.status is "overdue"',
    );
  });

  it('refuses what is not one comparison, with the expected form', () => {
    expect(() => parseExpression('loan.status')).toThrow(/not a comparison; write <value> <op> <value>/);
    expect(() => parseExpression('== active')).toThrow(/both sides of == need a value/);
    expect(() => parseExpression('a == b == c')).toThrow(/one comparison per expectation/);
  });

  it('does not split at operators inside quotes, brackets or placeholders', () => {
    const expression = parseExpression('txs.data[status=paid].amount_due == "a == b"');
    expect(expression.op).toBe('==');
    expect(expression.right).toEqual({ kind: 'literal', value: 'a == b', text: '"a == b"' });
  });

  it('reads a dotted word with an unknown root as an error that suggests quoting', () => {
    expect(() => evaluate(parseExpression('loan.status == lon.status'), scope)).toThrow(
      /nothing is named "lon" at this step; capture it first, or quote the text/,
    );
  });
});
