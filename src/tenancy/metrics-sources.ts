import type { SharedMode } from '../cluster/shared-mode.js';
import { type MetricsSources, SandboxMetrics } from '../http/metrics.js';
import type { Store } from '../store/store.js';

/**
 * The sandbox's metrics over its store (and, in shared mode, its database): what the gauges read
 * at scrape time. `shared` is read then, so it may be set after the metrics are made.
 */
export function sandboxMetrics(store: Store, shared: () => SharedMode | undefined): SandboxMetrics {
  const sources: MetricsSources = {
    residentPartners: () => store.partners.size,
    totalPartners: () => shared()?.directory.count() ?? store.partners.size,
    inspectorBytes: () => store.requests.bytesHeld,
    snapshotBytes: () => {
      let bytes = 0;
      for (const snapshot of store.snapshots.values()) bytes += snapshot.bytes;
      return bytes;
    },
  };
  return new SandboxMetrics(sources);
}
