import type { LogContext, Logger } from './deps.js';

/**
 * The server's own log (`--log-format`): for people, lines as they are (errors on stderr), or
 * one JSON object per line for a log collector: `{"time","level","msg",...context,"error"}`,
 * where the context names the request (`request_id`) or partner a line is about.
 */
export function logFor(format: 'pretty' | 'json'): Logger {
  if (format === 'pretty') {
    return {
      info: (message) => console.log(message),
      error: (message, error, context) => {
        const about = context?.request_id ? ` (request ${context.request_id})` : '';
        if (error === undefined) console.error(`${message}${about}`);
        else console.error(`${message}${about}`, error);
      },
    };
  }
  return {
    info: (message, context) => process.stdout.write(jsonLine('info', message, undefined, context)),
    error: (message, error, context) => process.stderr.write(jsonLine('error', message, error, context)),
  };
}

/** One log line as JSON (ends with a newline). */
export function jsonLine(
  level: 'info' | 'error',
  msg: string,
  error?: unknown,
  context?: LogContext,
): string {
  const entry: Record<string, unknown> = { time: new Date().toISOString(), level, msg, ...context };
  if (error !== undefined) {
    entry.error =
      error instanceof Error
        ? { name: error.name, message: error.message, stack: error.stack }
        : String(error);
  }
  return `${JSON.stringify(entry)}\n`;
}
