import { describe, expect, it } from 'vitest';
import { exitOf, runCli, spawnCli, waitForLine } from '../support/cli.js';

describe('serve: --seed, --start-time, --holidays-region', () => {
  it.each([
    [['--start-time', '2026-03-02'], '--start-time must be a date-time with a zone'],
    [['--start-time', '2026-03-02T12:00:00'], '--start-time must be a date-time with a zone'],
    [['--holidays-region', 'XX'], '--holidays-region must be a Brazilian state'],
    [['--seed', ''], '--seed needs a value'],
  ])('refuses %j with a usage error (exit 2)', async (flags, message) => {
    const res = await runCli(['serve', '--port', '0', ...flags]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(message);
  });

  it('starts seeded with the clock at --start-time and says so', async () => {
    const child = spawnCli([
      'serve',
      '--port',
      '0',
      '--clock',
      'frozen',
      '--seed',
      'cli-test',
      '--start-time',
      '2027-02-08T09:00:00-03:00',
      '--holidays-region',
      'sp',
    ]);
    const stdout = child.stdout as NodeJS.ReadableStream;
    let printed = '';
    stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString('utf8');
    });
    // The banner ends with the default credential.
    await waitForLine(stdout, (line) => line.includes('client_secret'));
    expect(printed).toContain('seed      cli-test; clocks start at 2027-02-08T12:00:00.000Z');
    expect(printed).toContain('Brazilian banking days, national + SP');
    child.kill('SIGTERM');
    await exitOf(child);
  });
});
