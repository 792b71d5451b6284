import { readFile } from 'node:fs/promises';
import type { DefaultCredential } from './domain/default-partner.js';

/** `--snapshot FILE` could not be loaded; the start stops with this message. */
export class StartSnapshotError extends Error {
  override name = 'StartSnapshotError';
}

/**
 * Loads an exported snapshot (JSON or gzip) into the default partner at start (`serve --snapshot`,
 * env CREDIT_SANDBOX_SNAPSHOT), through the API itself: the same checks as
 * `POST /v3/sandbox/snapshots/import`, and in shared mode the request reaches whichever instance
 * owns the default partner. It is kept under its name (replacing one of that name) and restored.
 */
export async function loadStartSnapshot(
  fetch: (request: Request) => Promise<Response>,
  file: string,
  credential: DefaultCredential,
): Promise<{ name: string; rows: number }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new StartSnapshotError(
      `--snapshot ${file}: cannot read it (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  const basic = Buffer.from(`${credential.clientId}:${credential.clientSecret}`).toString('base64');
  const tokenAnswer = await fetch(
    new Request('http://localhost/v3/auth/token', {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
    }),
  );
  if (tokenAnswer.status !== 200) {
    throw new StartSnapshotError(
      `--snapshot ${file}: no token for the default partner (${tokenAnswer.status})`,
    );
  }
  const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const answer = await fetch(
    new Request('http://localhost/v3/sandbox/snapshots/import?replace=true', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': gzipped ? 'application/gzip' : 'application/json',
      },
      body: new Uint8Array(bytes),
    }),
  );
  const body = (await answer.json()) as {
    detail?: string;
    snapshot?: { name: string; counts: Record<string, number> };
  };
  if (answer.status !== 201 || !body.snapshot) {
    throw new StartSnapshotError(`--snapshot ${file}: ${body.detail ?? `answered ${answer.status}`}`);
  }
  const rows = Object.values(body.snapshot.counts).reduce((sum, n) => sum + n, 0);
  return { name: body.snapshot.name, rows };
}
