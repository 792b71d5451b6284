import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The shell blocks of README.md and docs/*.md, for the test that runs them
 * (test/e2e/docs-commands.test.ts).
 *
 * A block is a fenced ```sh / ```bash / ```shell block. An HTML comment right above the fence
 * (invisible on GitHub) says how the test treats it:
 *
 *   <!-- docs-test: skip <reason> -->   not run here; the reason is part of the test's name
 *                                       (needs Docker, PostgreSQL, or runs until Ctrl-C — and
 *                                       where it is run instead)
 *   <!-- docs-test: twice -->           run two times in a row in one shell (it must be re-runnable)
 *   <!-- docs-test: continues -->       run in the same shell right after the block above it
 *
 * In a block whose lines start with `$ `, only those lines are commands (the rest is sample output).
 */
export interface DocBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The commands, one shell line each (continuations with a trailing backslash kept). */
  script: string;
  skip?: string;
  twice: boolean;
  continues: boolean;
}

const FENCE = /^```(sh|bash|shell)\s*$/;
const MARKER = /^<!--\s*docs-test:\s*(skip|twice|continues)\b\s*(.*?)\s*-->$/;

export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

export function docBlocks(root: string, file: string): DocBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let k = 0; k < lines.length; k += 1) {
    if (!FENCE.test(lines[k] as string)) continue;
    const start = k;
    const body: string[] = [];
    for (k += 1; k < lines.length && !(lines[k] as string).startsWith('```'); k += 1)
      body.push(lines[k] as string);
    let above = start - 1;
    while (above >= 0 && (lines[above] as string).trim() === '') above -= 1;
    const marker = MARKER.exec((lines[above] ?? '').trim());
    const transcript = body.some((line) => line.startsWith('$ '));
    const commands = transcript
      ? body.filter((line) => line.startsWith('$ ')).map((line) => line.slice(2))
      : body;
    blocks.push({
      file,
      line: start + 1,
      script: commands.join('\n'),
      ...(marker?.[1] === 'skip' ? { skip: marker[2] || 'no reason given' } : {}),
      twice: marker?.[1] === 'twice',
      continues: marker?.[1] === 'continues',
    });
  }
  return blocks;
}

/**
 * A documented call that prints its status (`curl -w '%{http_code}'`) and says which it expects in
 * a trailing comment (`# 303`, `# 422`) is checked: `| expect_status 303` is added before the
 * comment (the prelude defines it). Such a call is the one kind the prelude's curl does not fail on
 * 4xx/5xx, since the reader asked for the status itself.
 */
export function checkStatuses(script: string): string {
  const lines = script.split('\n');
  let command: string[] = [];
  for (let k = 0; k < lines.length; k += 1) {
    const line = lines[k] as string;
    command.push(line);
    if (line.endsWith('\\')) continue;
    const expected = /^(.*\S)(\s+#\s*)(\d{3})\b(.*)$/.exec(line);
    if (command.join('\n').includes('%{http_code}')) {
      if (!expected)
        throw new Error(`a call printing %{http_code} must say which status it expects (\`# 201\`): ${line}`);
      lines[k] = `${expected[1]} | expect_status ${expected[3]}${expected[2]}${expected[3]}${expected[4]}`;
    }
    command = [];
  }
  return lines.join('\n');
}

/** Placeholders like `ln_…` or `req_3f2a…` become the last id of that kind printed so far. */
export function fillPlaceholders(script: string): string {
  return script.replace(/\b([a-z]+)_[0-9a-f]*…/g, (_, prefix: string) => `"$(last_id ${prefix})"`);
}
