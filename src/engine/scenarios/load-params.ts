// The params block of a scenario file: each param's type, default and whether it is required.
import { placeholders, RANDOM_NAMES } from './scope.js';
import type { ParamSpec, ParamType } from './types.js';

export function parseParams(raw: Record<string, unknown>, problem: (message: string) => void): ParamSpec[] {
  return Object.entries(raw).map(([name, value]) => {
    const spec =
      typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : { default: value };
    const def = spec.default as ParamSpec['default'];
    const type = (spec.type as ParamType | undefined) ?? inferType(def);
    if (def !== undefined && !fitsType(def, type)) {
      problem(`params.${name}: default ${JSON.stringify(def)} is not of type ${type}`);
    }
    for (const ref of placeholders(def)) {
      if (!ref.startsWith('random.')) {
        problem(
          `params.${name}: a default may only use \${random.*} (${RANDOM_NAMES.join(', ')}), not \${${ref}}`,
        );
      }
    }
    return {
      name,
      type,
      description: spec.description as string | undefined,
      default: def,
      required: (spec.required as boolean | undefined) ?? def === undefined,
      example: spec.example as ParamSpec['example'],
    };
  });
}

function inferType(value: unknown): ParamType {
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'string';
}

function fitsType(value: string | number | boolean, type: ParamType): boolean {
  if (typeof value === 'string' && value.includes('${')) return true;
  return coerceParam(value, type) !== undefined;
}

/** A param value converted to its declared type (CLI values arrive as text), or undefined. */
export function coerceParam(value: unknown, type: ParamType): string | number | boolean | undefined {
  if (type === 'string') {
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : undefined;
  }
  if (type === 'boolean') {
    if (typeof value === 'boolean') return value;
    return value === 'true' ? true : value === 'false' ? false : undefined;
  }
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  if (!Number.isFinite(n)) return undefined;
  if (type === 'integer' && !Number.isInteger(n)) return undefined;
  return n;
}
