// The CLI's two kinds of failure, in a file of their own so that helpers such as urls.ts can throw
// them without importing the command context (which imports them back).

/** The command line is wrong: exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Something the user asked for did not happen (a failed scenario, a missing event): exit 1. */
export class FailedError extends Error {
  override name = 'FailedError';
}
