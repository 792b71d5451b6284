import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScenarioDirs } from './load.js';
import type { Scenario } from './types.js';

// scenarios/ and fixtures/ sit three levels above both src/engine/scenarios and dist/engine/scenarios.
/** The scenarios shipped with the sandbox. */
export const SHIPPED_SCENARIOS_DIR = fileURLToPath(new URL('../../../scenarios/', import.meta.url));
/** Sample documents that `@name` form values attach. */
export const FIXTURES_DIR = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

const cache = new Map<string, { stamp: string; checkedMs: number; scenarios: Map<string, Scenario> }>();
/** How often the files are looked at again (their names and times: a system call per file). */
export const CATALOG_CHECK_MS = 1000;

/**
 * The scenarios of the shipped directory plus `extraDirs` (a team's own files), by name. Loaded once
 * per set of directories and reloaded when a file changes (the files are looked at again at most
 * once a CATALOG_CHECK_MS, so a list or a run does not pay a system call per file); a broken file
 * throws ScenarioFileError naming the file, the step and the problem.
 */
export function scenarioCatalog(extraDirs: readonly string[] = []): Map<string, Scenario> {
  const dirs = [SHIPPED_SCENARIOS_DIR, ...extraDirs];
  const key = dirs.join('\n');
  const hit = cache.get(key);
  const nowMs = performance.now();
  if (hit && nowMs - hit.checkedMs < CATALOG_CHECK_MS) return hit.scenarios;
  const stamp = dirs.map((dir) => dirStamp(dir)).join('|');
  if (hit && hit.stamp === stamp) {
    hit.checkedMs = nowMs;
    return hit.scenarios;
  }
  const scenarios = loadScenarioDirs(dirs, { fixturesDir: FIXTURES_DIR });
  cache.set(key, { stamp, checkedMs: nowMs, scenarios });
  return scenarios;
}

// Names and modification times of the directory's files: an edit, addition or removal changes it.
function dirStamp(dir: string): string {
  try {
    return readdirSync(dir)
      .filter((name) => /\.ya?ml$/.test(name))
      .map((name) => `${name}@${statSync(join(dir, name)).mtimeMs}`)
      .join(',');
  } catch {
    return 'missing';
  }
}
