import { Decimal } from 'decimal.js';
import { looksLikePath, parsePath, ScenarioError } from './paths.js';
import { interpolateText, resolve, type Scope } from './scope.js';

/**
 * Expectations of scenario files: `<operand> <op> <operand>` with op one of == != > < >= <=.
 * An operand is a quoted string, a number, true/false/null, a `${path}`, or a bare word: a word
 * whose first name is known (a param group, a capture, `response`) reads that path; any other bare
 * word is text (`loan.status == overdue`). Numbers and numeric strings compare as decimals
 * (`tx.amount_paid == 945.60`); other strings compare as text, so ISO dates order correctly.
 */
export type Operator = '==' | '!=' | '>' | '<' | '>=' | '<=';

export type Operand =
  | { kind: 'literal'; value: string | number | boolean | null; text: string }
  /** `braced`: written as ${path}, so always a path. */
  | { kind: 'word'; text: string; braced: boolean };

export interface Expression {
  text: string;
  left: Operand;
  op: Operator;
  right: Operand;
}

export interface Verdict {
  ok: boolean;
  detail: string;
}

const OPERATORS: Operator[] = ['==', '!=', '>=', '<=', '>', '<'];
const NUMBER = /^-?\d+(\.\d+)?$/;

/** Parses one expectation; throws ScenarioError with a message that shows the expected form. */
export function parseExpression(text: string): Expression {
  const found = findOperator(text);
  if (!found) {
    throw new ScenarioError(
      `"${text}" is not a comparison; write <value> <op> <value> with op one of ${OPERATORS.join(' ')}, e.g. loan.status == active`,
    );
  }
  const leftText = text.slice(0, found.at).trim();
  const rightText = text.slice(found.at + found.op.length).trim();
  if (!leftText || !rightText) {
    throw new ScenarioError(`"${text}": both sides of ${found.op} need a value`);
  }
  if (findOperator(rightText)) {
    throw new ScenarioError(`"${text}": one comparison per expectation (use a list for several)`);
  }
  return { text, left: operand(leftText), op: found.op, right: operand(rightText) };
}

// The first operator outside quotes, brackets and ${…}.
function findOperator(text: string): { at: number; op: Operator } | undefined {
  let quote: string | undefined;
  let depth = 0;
  for (let k = 0; k < text.length; k += 1) {
    const ch = text[k] as string;
    if (quote) {
      if (ch === '\\') k += 1;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || (ch === '$' && text[k + 1] === '{')) depth += 1;
    else if ((ch === ']' || ch === '}') && depth > 0) depth -= 1;
    else if (depth === 0) {
      const op = OPERATORS.find((candidate) => text.startsWith(candidate, k));
      if (op) return { at: k, op };
    }
  }
  return undefined;
}

function operand(text: string): Operand {
  if (/^"(?:[^"\\]|\\.)*"$/.test(text)) return { kind: 'literal', value: JSON.parse(text) as string, text };
  if (/^'[^']*'$/.test(text)) return { kind: 'literal', value: text.slice(1, -1), text };
  if (text === 'null') return { kind: 'literal', value: null, text };
  if (text === 'true' || text === 'false') return { kind: 'literal', value: text === 'true', text };
  if (NUMBER.test(text)) return { kind: 'literal', value: text, text };
  const ref = /^\$\{([^}]*)\}$/.exec(text);
  if (ref) return { kind: 'word', text: (ref[1] ?? '').trim(), braced: true };
  return { kind: 'word', text, braced: false };
}

/**
 * How a bare word is read given the names in scope: a path when its root is known; text when it
 * is a plain word; an error when it looks like a path into an unknown name (a typo, most likely).
 */
export function classifyWord(text: string, known: (root: string) => boolean): 'path' | 'text' {
  if (!looksLikePath(text)) return 'text';
  const { root, segments } = parsePath(text);
  if (known(root)) return 'path';
  if (segments.length === 0) return 'text';
  throw new ScenarioError(
    `"${text}": nothing is named "${root}" at this step; capture it first, or quote the text ("${text}") if you meant a literal`,
  );
}

/** Evaluates an expectation against the scope. */
export function evaluate(expression: Expression, scope: Scope): Verdict {
  const known = (root: string) => root === 'random' || Object.hasOwn(scope.values, root);
  const read = (side: Operand) => {
    if (side.kind === 'literal') {
      // Quoted text may hold placeholders: "/v3/loans/${loan.id}".
      const value =
        typeof side.value === 'string' && side.value.includes('${')
          ? interpolateText(side.value, scope)
          : side.value;
      return { value: value as unknown, path: undefined };
    }
    if (classifyWord(side.text, known) === 'text') return { value: side.text as unknown, path: undefined };
    return { value: resolve(side.text, scope), path: side.text };
  };
  const left = read(expression.left);
  const right = read(expression.right);
  const ok = compare(expression.op, left.value, right.value);
  const shown = [left, right]
    .filter((side) => side.path !== undefined)
    .map((side) => `${side.path} is ${show(side.value)}`)
    .join(' and ');
  if (ok) return { ok, detail: shown || expression.text };
  return {
    ok,
    detail: `expected ${expression.text}, but ${shown || `${show(left.value)} ${expression.op} ${show(right.value)} is false`}`,
  };
}

/** Compares two values with an operator (see the module comment for the rules). */
export function compare(op: Operator, a: unknown, b: unknown): boolean {
  if (op === '==') return equal(a, b);
  if (op === '!=') return !equal(a, b);
  let order: number;
  if (isNumeric(a) && isNumeric(b)) {
    order = new Decimal(String(a)).comparedTo(new Decimal(String(b)));
  } else if (typeof a === 'string' && typeof b === 'string') {
    order = a < b ? -1 : a > b ? 1 : 0;
  } else {
    throw new ScenarioError(`cannot order ${show(a)} and ${show(b)} with ${op} (use numbers or strings)`);
  }
  if (op === '>') return order > 0;
  if (op === '<') return order < 0;
  if (op === '>=') return order >= 0;
  return order <= 0;
}

function equal(a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) {
    return (a === null || a === undefined) && (b === null || b === undefined);
  }
  if (isNumeric(a) && isNumeric(b)) return new Decimal(String(a)).equals(new Decimal(String(b)));
  if (typeof a !== 'object' && typeof b !== 'object') return String(a) === String(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

function isNumeric(value: unknown): boolean {
  return (
    (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && NUMBER.test(value))
  );
}

/** A value as a step detail shows it (JSON, shortened). */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
