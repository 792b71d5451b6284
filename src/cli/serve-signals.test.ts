import { afterEach, beforeEach, describe, expect, it, type Mock, type MockInstance, vi } from 'vitest';
import { stopOnSignals } from './serve-signals.js';

// The documented "stops within 2 s" is this deadline: checked on fake timers, so it holds however
// busy the machine is (test/e2e/cli-serve.test.ts checks a real `serve` exits 0, i.e. in time).
let exit: MockInstance<typeof process.exit>;
let log: { info: Mock; error: Mock };
let added: { signal: 'SIGTERM' | 'SIGINT'; listener: () => void }[] = [];

/** Installs the handlers and hands back the one for `signal` (the process is never signalled). */
function install(close: () => Promise<void>): Record<'SIGTERM' | 'SIGINT', () => void> {
  const before = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };
  stopOnSignals(close, log);
  const handlers = {} as Record<'SIGTERM' | 'SIGINT', () => void>;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const listener = process.listeners(signal).find((l) => !before[signal].includes(l)) as () => void;
    added.push({ signal, listener });
    handlers[signal] = listener;
  }
  return handlers;
}

beforeEach(() => {
  vi.useFakeTimers();
  exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as typeof process.exit);
  log = { info: vi.fn(), error: vi.fn() };
});

afterEach(() => {
  for (const { signal, listener } of added) process.off(signal, listener);
  added = [];
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('stopping on SIGTERM / SIGINT', () => {
  it('exits 0 as soon as closing ends, saying it stopped', async () => {
    let closed = () => {};
    const handlers = install(() => new Promise<void>((resolve) => (closed = resolve)));
    handlers.SIGTERM();
    expect(log.info).toHaveBeenCalledWith('credit-sandbox: SIGTERM received, stopping…');
    await vi.advanceTimersByTimeAsync(1_999);
    expect(exit).not.toHaveBeenCalled();
    closed();
    await vi.advanceTimersByTimeAsync(0);
    expect(exit).toHaveBeenCalledWith(0);
    expect(log.info).toHaveBeenCalledWith('credit-sandbox stopped');
  });

  it('exits 1 when closing overruns 2 s, not a millisecond before', async () => {
    const handlers = install(() => new Promise<void>(() => {}));
    handlers.SIGINT();
    await vi.advanceTimersByTimeAsync(1_999);
    expect(exit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(exit).toHaveBeenCalledWith(1);
    expect(log.error).toHaveBeenCalledWith('credit-sandbox: did not stop within 2000 ms, exiting');
  });

  it('exits 1 at once on a second signal', async () => {
    const handlers = install(() => new Promise<void>(() => {}));
    handlers.SIGTERM();
    handlers.SIGINT();
    expect(exit).toHaveBeenCalledWith(1);
    expect(log.error).toHaveBeenCalledWith('credit-sandbox: SIGINT received again, exiting now');
  });
});
