import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where `listen` keeps the signing secret of each endpoint it reuses, as the Stripe CLI keeps its
 * own: the sandbox answers a secret only when it creates or rotates one, so a second run can print
 * the same secret only if the first wrote it down. One file per user,
 * `$CREDIT_SANDBOX_CONFIG_DIR/listen.json` (default `$XDG_CONFIG_HOME/credit-sandbox` or
 * `~/.config/credit-sandbox`), readable by its owner only. It holds test-mode secrets of sandbox
 * endpoints and nothing else.
 */
export interface ListenSecrets {
  get(key: string): { endpointId: string; secret: string } | undefined;
  set(key: string, value: { endpointId: string; secret: string }): void;
}

interface FileShape {
  format: 'credit-sandbox-listen';
  version: 1;
  endpoints: Record<string, { endpoint_id: string; secret: string }>;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CREDIT_SANDBOX_CONFIG_DIR) return env.CREDIT_SANDBOX_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'credit-sandbox');
}

/** The secrets file; a missing or unreadable file is an empty one (the next run rotates). */
export function listenSecrets(dir: string = configDir()): ListenSecrets {
  const file = join(dir, 'listen.json');
  const read = (): FileShape => {
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<FileShape>;
      if (
        parsed.format === 'credit-sandbox-listen' &&
        parsed.endpoints &&
        typeof parsed.endpoints === 'object'
      )
        return { format: 'credit-sandbox-listen', version: 1, endpoints: parsed.endpoints };
    } catch {
      // absent or damaged: start afresh
    }
    return { format: 'credit-sandbox-listen', version: 1, endpoints: {} };
  };
  return {
    get(key) {
      const entry = read().endpoints[key];
      return typeof entry?.endpoint_id === 'string' && typeof entry.secret === 'string'
        ? { endpointId: entry.endpoint_id, secret: entry.secret }
        : undefined;
    },
    set(key, value) {
      const data = read();
      data.endpoints[key] = { endpoint_id: value.endpointId, secret: value.secret };
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
      renameSync(temp, file);
    },
  };
}
