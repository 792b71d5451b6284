import { UsageError } from './context.js';

/** The body of `PUT /v3/sandbox/webhooks/endpoints/{id}/chaos`. */
export interface ChaosRequest {
  duplicate_rate?: number;
  drop_rate?: number;
  max_delay?: string;
  reorder?: boolean;
}

const RATE_KEYS: Record<string, 'duplicate_rate' | 'drop_rate'> = {
  duplicate: 'duplicate_rate',
  duplicate_rate: 'duplicate_rate',
  drop: 'drop_rate',
  drop_rate: 'drop_rate',
};

/**
 * Parses `duplicate=0.2,drop=0.1,delay=30s,reorder` (long names `duplicate_rate`, `drop_rate`,
 * `max_delay` work too; `reorder` alone means true). Unknown names are a usage error that lists
 * the valid ones; the server checks the values' ranges and answers with the field at fault.
 */
export function parseChaosOption(text: string): ChaosRequest {
  const chaos: ChaosRequest = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [rawName, value] = part.split('=', 2) as [string, string | undefined];
    const name = rawName.trim().toLowerCase();
    const rateKey = RATE_KEYS[name];
    if (rateKey) {
      const rate = Number(value);
      if (value === undefined || !Number.isFinite(rate)) {
        throw new UsageError(`--chaos ${name} needs a number 0..1, e.g. ${name}=0.2`);
      }
      chaos[rateKey] = rate;
    } else if (name === 'delay' || name === 'max_delay') {
      if (!value) throw new UsageError(`--chaos ${name} needs a duration, e.g. ${name}=30s`);
      chaos.max_delay = value.trim();
    } else if (name === 'reorder') {
      if (value !== undefined && !['true', 'false'].includes(value)) {
        throw new UsageError('--chaos reorder takes no value, or true/false');
      }
      chaos.reorder = value !== 'false';
    } else {
      throw new UsageError(
        `unknown --chaos setting "${rawName}". Use duplicate=<0..1>, drop=<0..1>, delay=<duration up to 1h>, reorder`,
      );
    }
  }
  return chaos;
}
