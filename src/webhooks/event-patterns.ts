import { ApiError, type FieldError } from '../domain/errors.js';
import { ALL_EVENT_PATTERNS, isEventPattern } from '../engine/event-types.js';

/**
 * Checks an endpoint's `events` list and returns it without duplicates (first occurrence kept).
 * Every entry must be `*`, `<resource>.*` or an exact event name; unknown ones answer 422 listing
 * each bad entry and the valid patterns. Empty means every event and is kept as given.
 */
export function checkEventPatterns(patterns: readonly string[]): string[] {
  const errors: FieldError[] = [];
  patterns.forEach((pattern, i) => {
    if (!isEventPattern(pattern)) {
      errors.push({
        param: `events.${i}`,
        detail: `unknown event pattern "${pattern}"`,
        code: 'unknown_event',
      });
    }
  });
  if (errors.length > 0) {
    const bad = errors.map((e) => e.detail.slice('unknown event pattern '.length)).join(', ');
    throw new ApiError(
      'unknown_event_pattern',
      `Unknown event pattern${errors.length > 1 ? 's' : ''} ${bad}. Valid patterns: ${ALL_EVENT_PATTERNS.join(', ')}. Omit \`events\` or send [] to receive every event.`,
      { param: errors[0]?.param, errors },
    );
  }
  return [...new Set(patterns)];
}
