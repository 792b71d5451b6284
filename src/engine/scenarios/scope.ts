import { parsePath, ScenarioError, walk } from './paths.js';

/** The names a running scenario can read: `params`, captured values, `response`, and `random.*`. */
export interface Scope {
  values: Record<string, unknown>;
  /** A fresh generated value per use: `random.cpf`, `random.hex`. */
  random: (name: string) => unknown;
}

/** Names every scenario can read besides its captures. */
export const BUILT_IN_ROOTS = ['params', 'random', 'run'] as const;
/** Generators behind `${random.<name>}`. */
export const RANDOM_NAMES = ['cpf', 'hex', 'email', 'phone'] as const;

const PLACEHOLDER = /\$\{([^}]*)\}/g;
const WHOLE = /^\$\{([^}]*)\}$/;

/** The value at a path (`loan.status`); `${…}` inside it (e.g. in a selector) is filled in first. */
export function resolve(pathText: string, scope: Scope): unknown {
  const text = pathText.includes('${')
    ? pathText.replace(PLACEHOLDER, (_, inner: string) => String(resolveDefined(inner.trim(), scope)))
    : pathText;
  const path = parsePath(text.trim());
  if (path.root === 'random') {
    const [first, ...rest] = path.segments;
    if (first?.kind !== 'key' || !(RANDOM_NAMES as readonly string[]).includes(first.name)) {
      throw new ScenarioError(
        `"${pathText}": random offers ${RANDOM_NAMES.map((n) => `random.${n}`).join(', ')}`,
      );
    }
    return walk(scope.random(first.name), rest);
  }
  if (!Object.hasOwn(scope.values, path.root)) {
    throw new ScenarioError(
      `"${pathText}": nothing is named "${path.root}" here (known: ${Object.keys(scope.values).join(', ')}, random)`,
    );
  }
  return walk(scope.values[path.root], path.segments);
}

/** Like `resolve`, but a path that finds nothing is an error that shows what was there instead. */
export function resolveDefined(pathText: string, scope: Scope): unknown {
  const value = resolve(pathText, scope);
  if (value === undefined) {
    throw new ScenarioError(`"${pathText}" is undefined${describeParent(pathText, scope)}`);
  }
  return value;
}

function describeParent(pathText: string, scope: Scope): string {
  const cut = Math.max(pathText.lastIndexOf('.'), pathText.lastIndexOf('['));
  if (cut <= 0) return '';
  let parent: unknown;
  try {
    parent = resolve(pathText.slice(0, cut), scope);
  } catch {
    return '';
  }
  if (Array.isArray(parent)) return ` (${pathText.slice(0, cut)} is a list of ${parent.length})`;
  if (parent && typeof parent === 'object') {
    return ` (${pathText.slice(0, cut)} has: ${Object.keys(parent).join(', ')})`;
  }
  return ` (${pathText.slice(0, cut)} is ${JSON.stringify(parent)})`;
}

/**
 * The value of a placeholder's inside: a path, or alternatives `a ?? b ?? 12` (the first that is
 * neither undefined nor null; a number or a quoted string may close the chain as a fallback).
 */
export function resolvePlaceholder(inner: string, scope: Scope): unknown {
  const options = alternatives(inner);
  if (options.length === 1) return resolveDefined(inner.trim(), scope);
  let sawNull = false;
  let lastError: unknown;
  for (const option of options) {
    const literal = fallbackLiteral(option);
    if (literal !== undefined) return literal;
    try {
      const value = resolve(option, scope);
      if (value !== undefined && value !== null) return value;
      if (value === null) sawNull = true;
      else lastError = new ScenarioError(`"${option}" is undefined`);
    } catch (error) {
      lastError = error;
    }
  }
  if (sawNull) return null;
  throw lastError instanceof ScenarioError
    ? new ScenarioError(`none of ${options.join(' ?? ')} has a value (${lastError.message})`)
    : lastError;
}

/** The `??`-separated parts of a placeholder (outside brackets). */
export function alternatives(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let k = 0; k < inner.length; k += 1) {
    const ch = inner[k];
    if (ch === '[') depth += 1;
    else if (ch === ']') depth -= 1;
    else if (depth === 0 && ch === '?' && inner[k + 1] === '?') {
      parts.push(inner.slice(start, k).trim());
      start = k + 2;
      k += 1;
    }
  }
  parts.push(inner.slice(start).trim());
  return parts;
}

/** A number or quoted string closing a `??` chain, or undefined. */
export function fallbackLiteral(text: string): string | number | undefined {
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  const quoted = /^"([^"]*)"$|^'([^']*)'$/.exec(text);
  return quoted ? (quoted[1] ?? quoted[2] ?? '') : undefined;
}

/**
 * Fills `${path}` placeholders in a template: strings, and strings inside objects and arrays.
 * A string that is exactly one placeholder keeps the value's type (`installment_number: ${params.n}`
 * stays a number); placeholders inside longer text are written as text.
 */
export function interpolate(template: unknown, scope: Scope): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE.exec(template);
    if (whole) return resolvePlaceholder(whole[1] ?? '', scope);
    if (!template.includes('${')) return template;
    return template.replace(PLACEHOLDER, (_, inner: string) => asText(resolvePlaceholder(inner, scope)));
  }
  if (Array.isArray(template)) return template.map((item) => interpolate(item, scope));
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(
      Object.entries(template).map(([key, value]) => [key, interpolate(value, scope)]),
    );
  }
  return template;
}

/** Interpolates a template that must give text (paths, durations, header values). */
export function interpolateText(template: string, scope: Scope): string {
  return asText(interpolate(template, scope));
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Every `${…}` placeholder inside a template, for checks when a file is loaded. */
export function placeholders(template: unknown): string[] {
  if (typeof template === 'string')
    return [...template.matchAll(PLACEHOLDER)].map((m) => (m[1] ?? '').trim());
  if (Array.isArray(template)) return template.flatMap(placeholders);
  if (template !== null && typeof template === 'object') return Object.values(template).flatMap(placeholders);
  return [];
}
