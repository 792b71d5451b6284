import type { Check } from '../../src/conformance/types.js';

/** The list of checks as docs/conformance.md shows it (between its `checks` markers). */
export function checksTable(checks: readonly Check[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const rows = checks.map(
    (check) => `| \`${check.id}\` | ${check.needs} | ${cell(check.title)} | ${cell(check.spec)} |`,
  );
  return ['| id | needs | rule | spec section |', '|---|---|---|---|', ...rows].join('\n');
}
