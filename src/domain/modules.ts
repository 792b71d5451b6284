import type { Engine } from '../engine/engine.js';
import { webhooksModule } from '../webhooks/module.js';
import { creditModule } from './credit/module.js';
import { customersModule } from './customers/module.js';

/**
 * A domain module plugs its automatic moves into the engine: job handlers (`engine.handle`) and
 * reactions to other modules' events (`engine.onEvent`). Listed once here; `createDeps` registers
 * them all.
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

export const DOMAIN_MODULES: DomainModule[] = [webhooksModule, customersModule, creditModule];
