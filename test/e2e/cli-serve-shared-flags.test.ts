import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

describe('serve: --lease and --forward-wait', () => {
  it.each([
    [['--lease', '999'], '--lease must be an integer of milliseconds 1000..60000'],
    [['--lease', '60001'], '--lease must be an integer of milliseconds 1000..60000'],
    [['--lease', '2s'], '--lease must be an integer of milliseconds 1000..60000'],
    [['--forward-wait', '120001'], '--forward-wait must be an integer of milliseconds 1000..120000'],
    [
      ['--lease', '10000', '--forward-wait', '5000'],
      '--forward-wait (5000) must be at least --lease (10000)',
    ],
  ])('refuses %j with a usage error (exit 2)', async (flags, message) => {
    const res = await runCli(['serve', '--port', '0', ...flags]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(message);
  });
});
