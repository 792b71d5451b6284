#!/usr/bin/env node
// Fails when a source file under src/ is longer than the house limit (docs/architecture.md):
// a room over 300 lines is split by what it does. Tests and generated files are excepted by name.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const LIMIT = 300;
const ROOT = 'src';
/** Generated files, named one by one (none today). */
const GENERATED = new Set([]);
const isSource = (name) => /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name);

const tooLong = [];
const pending = [ROOT];
while (pending.length > 0) {
  const dir = pending.pop();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) pending.push(path);
    else if (isSource(entry.name) && !GENERATED.has(relative('.', path))) {
      const text = readFileSync(path, 'utf8');
      const lines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
      if (lines > LIMIT) tooLong.push([relative('.', path), lines]);
    }
  }
}
tooLong.sort((a, b) => b[1] - a[1]);
for (const [path, lines] of tooLong) console.error(`${path}: ${lines} lines (limit ${LIMIT}); split it by what it does`);
if (tooLong.length > 0) process.exit(1);
console.log(`file sizes: every source file under ${ROOT}/ has at most ${LIMIT} lines`);
