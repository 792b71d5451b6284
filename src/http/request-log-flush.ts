import { StorageUnavailableError } from '../store/storage-health.js';
import type { AppDeps } from './deps.js';

/** How soon a logged read is persisted when nothing else writes. */
const LOG_FLUSH_MS = 1000;

const flushers = new WeakMap<AppDeps, () => void>();

/**
 * Reads write nothing else, so a read-only stretch would never flush the request log (and its
 * pending change set would only grow): flush in the background, at most once a second. One timer
 * per sandbox, used by the request path's recorder (src/http/pipeline/record.ts).
 */
export function requestLogFlusher(deps: AppDeps): () => void {
  let flushSoon = flushers.get(deps);
  if (flushSoon) return flushSoon;
  let timer: NodeJS.Timeout | undefined;
  flushSoon = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      deps.persistence.flush().catch((error: unknown) => {
        // A store that cannot write is logged once, when it stops (see StorageHealth).
        if (!(error instanceof StorageUnavailableError))
          deps.log.error('persisting the request log failed', error);
      });
    }, LOG_FLUSH_MS);
    timer.unref();
  };
  flushers.set(deps, flushSoon);
  return flushSoon;
}
