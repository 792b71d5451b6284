import type { Engine } from '../engine/engine.js';

/**
 * A domain module plugs its automatic moves into the engine: job handlers (`engine.handle`) and
 * reactions to other modules' events (`engine.onEvent`). Listed once here; `createDeps` registers
 * them all.
 */
export interface DomainModule {
  name: string;
  register(engine: Engine): void;
}

export const DOMAIN_MODULES: DomainModule[] = [];
