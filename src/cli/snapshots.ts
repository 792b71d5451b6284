import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Command } from 'commander';
import { action, UsageError } from './context.js';

interface Snapshot {
  name: string;
  saved_at: string;
  clock: { now: string; frozen: boolean };
  random_draws: number | null;
  bytes: number;
  counts: Record<string, number>;
}

interface Restored {
  snapshot: Snapshot;
  clock: { now: string; frozen: boolean };
  abandoned_deliveries: number;
}

const path = (name: string) => `/v3/sandbox/snapshots/${encodeURIComponent(name)}`;

function summary(s: Snapshot): string {
  const { customers = 0, loans = 0, events = 0 } = s.counts;
  return `${s.name}  saved ${s.saved_at} (${s.clock.frozen ? 'frozen' : 'running'})  ${customers} customers, ${loans} loans, ${events} events  ${s.bytes} bytes`;
}

function restoredLines(r: Restored): string[] {
  return [
    `restored ${r.snapshot.name}: clock at ${r.clock.now} (${r.clock.frozen ? 'frozen' : 'running'})`,
    ...(r.abandoned_deliveries > 0
      ? [`${r.abandoned_deliveries} webhook attempts in flight were abandoned (see the delivery log)`]
      : []),
  ];
}

/** `snapshot save|restore|list|delete|export|import`: named snapshots of this partner's world. */
export function registerSnapshots(program: Command): void {
  const snapshot = program
    .command('snapshot')
    .description("save and restore this partner's whole world by name; export and import it as a file");

  snapshot
    .command('save <name>')
    .description('save every object, the clock, jobs, events, deliveries and idempotency keys under a name')
    .option('--replace', 'overwrite a snapshot of the same name')
    .action(
      action(async ({ client, out }, name: string, opts: { replace?: boolean }) => {
        const saved = await client.call<Snapshot>('POST', '/v3/sandbox/snapshots', {
          body: { name, ...(opts.replace ? { replace: true } : {}) },
        });
        out.result(saved, () => `saved ${summary(saved)}`);
        return undefined;
      }),
    );

  snapshot
    .command('restore <name>')
    .description('put the world back as it was saved (credentials stay; no webhook is sent for it)')
    .action(
      action(async ({ client, out }, name: string) => {
        const restored = await client.call<Restored>('POST', `${path(name)}/restore`);
        out.result(restored, () => restoredLines(restored));
        return undefined;
      }),
    );

  snapshot
    .command('list')
    .description("this partner's snapshots, newest first")
    .action(
      action(async ({ client, out }) => {
        const page = await client.call<{ data: Snapshot[] }>('GET', '/v3/sandbox/snapshots');
        out.result(page.data, () =>
          page.data.length
            ? page.data.map(summary)
            : ['no snapshots yet (credit-sandbox snapshot save <name>)'],
        );
        return undefined;
      }),
    );

  snapshot
    .command('delete <name>')
    .description('delete a snapshot (the world stays as it is)')
    .action(
      action(async ({ client, out }, name: string) => {
        const deleted = await client.call<{ name: string }>('DELETE', path(name));
        out.result(deleted, () => `deleted snapshot ${deleted.name}`);
        return undefined;
      }),
    );

  snapshot
    .command('export <name>')
    .description(
      'write a snapshot as one JSON document (gzip when FILE ends in .gz), to commit next to tests',
    )
    .option('-o, --output <file>', 'file to write (default: stdout)')
    .action(
      action(async ({ client, out }, name: string, opts: { output?: string }) => {
        const document = await client.call<unknown>('GET', `${path(name)}/export`);
        const text = JSON.stringify(document);
        if (!opts.output) {
          process.stdout.write(`${text}\n`);
          return undefined;
        }
        const data = opts.output.endsWith('.gz') ? gzipSync(text) : Buffer.from(text);
        // A fixtures folder that does not exist yet is made, as `-o fixtures/x.json.gz` suggests.
        await mkdir(dirname(opts.output), { recursive: true });
        await writeFile(opts.output, data);
        out.result(
          { name, file: opts.output, bytes: data.length },
          () => `wrote ${name} to ${opts.output} (${data.length} bytes)`,
        );
        return undefined;
      }),
    );

  snapshot
    .command('import <file>')
    .description('import an exported snapshot (JSON or .json.gz) into this partner and restore it (ids kept)')
    .option('--name <name>', "keep it under this name instead of the document's")
    .option('--replace', 'overwrite a snapshot of the same name')
    .action(
      action(async ({ client, out }, file: string, opts: { name?: string; replace?: boolean }) => {
        let data: Buffer;
        try {
          data = await readFile(file);
        } catch (error) {
          throw new UsageError(`cannot read ${file} (${(error as NodeJS.ErrnoException).code})`);
        }
        const gzipped = data[0] === 0x1f && data[1] === 0x8b;
        const restored = await client.call<Restored>('POST', '/v3/sandbox/snapshots/import', {
          raw: { data, contentType: gzipped ? 'application/gzip' : 'application/json' },
          query: { name: opts.name, replace: opts.replace ? 'true' : undefined },
        });
        out.result(restored, () => [`imported ${summary(restored.snapshot)}`, ...restoredLines(restored)]);
        return undefined;
      }),
    );
}
