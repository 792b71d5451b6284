#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { registerClock } from './clock.js';
import { registerConformance } from './conformance.js';
import { addGlobalOptions, EXIT } from './context.js';
import { registerCustomers } from './customers.js';
import { registerDeliveries } from './deliveries.js';
import { registerEvents } from './events.js';
import { registerFaults } from './faults.js';
import { registerListen } from './listen.js';
import { registerLoans } from './loans.js';
import { registerPartners } from './partners.js';
import { registerProxy } from './proxy.js';
import { registerRequests } from './requests.js';
import { registerReset } from './reset.js';
import { registerScenario } from './scenario.js';
import { registerServe } from './serve.js';
import { registerSnapshots } from './snapshots.js';
import { registerTrigger } from './trigger.js';
import { registerWebhooks } from './webhooks.js';

const program = new Command()
  .name('credit-sandbox')
  .description('A stateful sandbox of the embedded-credit partner API')
  .version('0.1.0')
  // Commander errors (unknown command or option, missing argument) exit 2 instead of 1.
  .exitOverride();

addGlobalOptions(program);
registerServe(program);
registerClock(program);
registerScenario(program);
registerEvents(program);
registerRequests(program);
registerListen(program);
registerTrigger(program);
registerPartners(program);
registerCustomers(program);
registerLoans(program);
registerReset(program);
registerSnapshots(program);
registerWebhooks(program);
registerDeliveries(program);
registerFaults(program);
registerConformance(program);
registerProxy(program);

rejectUnknownCommand(program, process.argv.slice(2));

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  const ok = ['commander.helpDisplayed', 'commander.version'].includes(error.code);
  process.exit(ok ? EXIT.ok : EXIT.usage);
}

/**
 * `serve` is the default command, so commander would read a mistyped command as an argument of
 * serve ("too many arguments for 'serve'"). Say what is wrong instead, and exit 2.
 */
function rejectUnknownCommand(root: Command, args: string[]): void {
  const serve = root.commands.find((c) => c.name() === 'serve');
  const takesValue = new Set(
    [...root.options, ...(serve?.options ?? [])]
      .filter((option) => option.required || option.optional)
      .flatMap((option) => [option.long, option.short].filter((flag): flag is string => Boolean(flag))),
  );
  let first: string | undefined;
  for (let k = 0; k < args.length; k += 1) {
    const arg = args[k] as string;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (takesValue.has(arg)) k += 1;
      continue;
    }
    first = arg;
    break;
  }
  const names = root.commands.flatMap((c) => [c.name(), ...c.aliases()]);
  if (first === undefined || first === 'help' || names.includes(first)) return;
  process.stderr.write(
    `error: unknown command '${first}'. Commands: ${names.join(', ')}. See credit-sandbox --help.\n`,
  );
  process.exit(EXIT.usage);
}
