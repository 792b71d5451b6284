// A process with nothing open but an in-process sandbox (no server, no socket): it writes a
// customer and waits for the row sizer to measure it. The sizer's own timers keep no process
// alive, so without `whenDrained` keeping this one alive it would end before the drain, with
// Node's "unsettled top-level await" (exit 13). Run by test/e2e/row-sizer-drained.test.ts.
// Prints "drained" once the wait resolved.
import { CPF, createCustomer } from './customers.js';
import { createTestSandbox } from './sandbox.js';

const sandbox = createTestSandbox();
await createCustomer(sandbox, { cpf: CPF.other });
await sandbox.deps.rowSizer?.whenDrained();
console.log(sandbox.deps.rowSizer ? 'drained' : 'no row sizer');
