#!/usr/bin/env node
import { Command } from 'commander';
import { registerServe } from './serve.js';

const program = new Command()
  .name('credit-sandbox')
  .description('A stateful sandbox of the embedded-credit partner API')
  .version('0.1.0');

registerServe(program);

await program.parseAsync(process.argv);
