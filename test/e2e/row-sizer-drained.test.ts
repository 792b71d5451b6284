import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('waiting for the row sizer', () => {
  it('keeps a process with nothing else open alive until the rows are measured', () => {
    const script = fileURLToPath(new URL('../support/row-sizer-drained.ts', import.meta.url));
    const out = execFileSync(process.execPath, ['--import', 'tsx', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(out.trim().split('\n').at(-1)).toBe('drained');
  }, 90_000);
});
