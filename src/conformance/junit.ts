// JUnit XML derived from the report, for CI systems that show test results: one test suite (the
// target), one test case per check; a departure is a <failure>, a skip a <skipped>.
import { XMLBuilder } from 'fast-xml-parser';
import type { Report } from './report.js';

export function junitXml(report: Report): string {
  const seconds = Math.max(0, (Date.parse(report.finished_at) - Date.parse(report.started_at)) / 1000);
  const testcase = report.checks.map((check) => {
    const node: Record<string, unknown> = {
      '@_classname': `conformance.${check.id.split('.', 1)[0]}`,
      '@_name': `${check.id}: ${check.title}`,
    };
    if (check.status === 'fail') {
      const details = [
        `spec: ${check.spec}`,
        check.expected !== undefined ? `expected: ${check.expected}` : undefined,
        check.actual !== undefined ? `actual: ${check.actual}` : undefined,
        check.request
          ? `request: ${check.request.method} ${check.request.path}${check.request.status ? ` → ${check.request.status}` : ''}`
          : undefined,
      ].filter((line): line is string => line !== undefined);
      node.failure = {
        '@_message': check.reason ?? 'departure from the spec',
        '@_type': 'departure',
        '#text': details.join('\n'),
      };
    } else if (check.status === 'skip') {
      node.skipped = { '@_message': check.reason ?? 'skipped' };
    }
    return node;
  });
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    format: true,
    suppressEmptyNode: true,
    processEntities: true,
  });
  const xml = builder.build({
    testsuites: {
      '@_name': 'credit-sandbox conformance',
      '@_tests': report.checks.length,
      '@_failures': report.summary.fail,
      '@_skipped': report.summary.skip,
      '@_time': seconds.toFixed(3),
      testsuite: {
        '@_name': `conformance ${report.target} (${report.mode})`,
        '@_tests': report.checks.length,
        '@_failures': report.summary.fail,
        '@_errors': 0,
        '@_skipped': report.summary.skip,
        '@_timestamp': report.started_at,
        '@_time': seconds.toFixed(3),
        testcase,
      },
    },
  }) as string;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${xml}`;
}
