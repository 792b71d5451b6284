import { basename } from 'node:path';
import type { Command } from 'commander';
import { action, EXIT, UsageError } from './context.js';

/** `scenario from-recording <recordings…> -o <file.yaml>` (docs/proxy.md). */
export function registerScenarioFromRecording(scenario: Command): void {
  scenario
    .command('from-recording')
    .argument('<recordings...>', 'recording files made by `credit-sandbox proxy --record`, oldest first')
    .requiredOption(
      '-o, --output <file.yaml>',
      'the scenario file to write; its name (kebab-case) is the scenario name',
    )
    .option(
      '--provider-state <name>',
      'the Pact provider state it declares (default: "the recorded session <name>")',
    )
    .description(
      'write a scenario that rebuilds a recorded session on any sandbox (steps, captures, moves, expected statuses)',
    )
    .action(
      action(async ({ out }, files: string[], opts: { output: string; providerState?: string }) => {
        const name = basename(opts.output).replace(/\.ya?ml$/, '');
        if (!/\.ya?ml$/.test(opts.output) || !/^[a-z0-9][a-z0-9-]*$/.test(name)) {
          throw new UsageError(
            `-o ${opts.output}: the file must be <kebab-case-name>.yaml (the name is the scenario's)`,
          );
        }
        const { readRecordings } = await import('../proxy/recording-files.js');
        const { scenarioFromRecording } = await import('../proxy/scenario-from-recording.js');
        let lines: Awaited<ReturnType<typeof readRecordings>>;
        try {
          lines = await readRecordings(files);
        } catch (error) {
          throw new UsageError((error as Error).message);
        }
        const scenario = scenarioFromRecording(lines, {
          name,
          providerState: opts.providerState,
          source: files.at(-1)!,
        });
        const { writeFile } = await import('node:fs/promises');
        await writeFile(opts.output, scenario.yaml);
        out.result({ file: opts.output, name, steps: scenario.steps, skipped: scenario.skipped }, () => [
          `wrote ${opts.output}: scenario ${name}, ${scenario.steps} steps`,
          ...scenario.skipped.map((reason) => `  left out: ${reason}`),
          `run it: credit-sandbox serve --scenarios ${opts.output.includes('/') ? opts.output.slice(0, opts.output.lastIndexOf('/')) : '.'} and credit-sandbox scenario run ${name}`,
        ]);
        return EXIT.ok;
      }),
    );
}
