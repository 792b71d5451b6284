// The shapes the scenario loader shares: a problem found in a file and the options of a load.
import type { Scenario } from './types.js';

/** One thing wrong with a scenario file: where (file, step) and what. */
export interface ScenarioProblem {
  file: string;
  step?: { index: number; name?: string | undefined };
  message: string;
}

export interface LoadOptions {
  /** Where `@file` form values are looked up (fixtures/). */
  fixturesDir?: string;
  /** How the file is named in messages (default: the path as given). */
  displayName?: string;
  /** Finds the scenario an `include` step names (a string says why it cannot be used). */
  include?: (name: string) => Scenario | string;
}
