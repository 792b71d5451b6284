import type { Context } from 'hono';
import type { DomainContext } from '../engine/context.js';
import type { AppDeps } from '../http/deps.js';
import type { AppEnv } from '../http/env.js';

/** The domain context of the authenticated partner of this request. */
export function domainContext(deps: AppDeps, c: Context<AppEnv>): DomainContext {
  return deps.engine.context(c.get('partner').id, c.get('clock'));
}
