import type { Engine } from '../engine/engine.js';

/**
 * A domain module plugs its automatic moves into the engine: job handlers (`engine.handle`) and
 * reactions to other modules' events (`engine.onEvent`). The composition root (`deps.ts`) lists
 * them and registers them all; this file imports none of them, so no module imports its registry.
 */
export interface DomainModule {
  name: string;
  /** `settings` is the live server config: read `publicUrl` on use (it is known only once the server listens). */
  register(engine: Engine, settings: ModuleSettings): void;
}

/** What modules may read of the server's settings. */
export interface ModuleSettings {
  readonly publicUrl: string;
}
