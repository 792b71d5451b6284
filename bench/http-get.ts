// Authenticated GET of a small resource through the whole sandbox stack (auth, rate limit,
// routing, zod, problem handling) versus a bare Hono app answering static JSON, same run, same machine.
import { pathToFileURL } from 'node:url';
import { formatNumber, load, startChild } from './support.js';

const TARGET_RATIO = 0.6;

export async function run(): Promise<{ name: string; markdown: string; ok: boolean }> {
  const bare = await startChild('./servers/bare-hono.ts');
  const sandbox = await startChild('./servers/sandbox.ts');
  try {
    const basic = Buffer.from('cid_bench:svc_cs_test_bench').toString('base64');
    const tokenRes = await fetch(`http://127.0.0.1:${sandbox.port}/v3/auth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
    });
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const path = '/v3/sandbox/clock';
    // Warm both (JIT), then measure each in turn.
    await load(`http://127.0.0.1:${bare.port}${path}`, { seconds: 2 });
    await load(`http://127.0.0.1:${sandbox.port}${path}`, {
      seconds: 2,
      headers: { authorization: `Bearer ${access_token}` },
    });
    const bareResult = await load(`http://127.0.0.1:${bare.port}${path}`);
    const sandboxResult = await load(`http://127.0.0.1:${sandbox.port}${path}`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    if (sandboxResult.non2xx > 0)
      throw new Error(`sandbox answered ${sandboxResult.non2xx} non-2xx responses`);
    const ratio = sandboxResult.requestsPerSecond / bareResult.requestsPerSecond;
    const markdown = [
      `| server | req/s | p99 ms |`,
      `|---|---:|---:|`,
      `| bare Hono, static JSON | ${formatNumber(bareResult.requestsPerSecond)} | ${bareResult.p99Ms} |`,
      `| credit-sandbox, authenticated \`GET ${path}\` | ${formatNumber(sandboxResult.requestsPerSecond)} | ${sandboxResult.p99Ms} |`,
      ``,
      `Ratio sandbox / bare: **${ratio.toFixed(2)}** (target >= ${TARGET_RATIO}).`,
    ].join('\n');
    return { name: 'Authenticated GET vs bare Hono', markdown, ok: ratio >= TARGET_RATIO };
  } finally {
    bare.child.kill();
    sandbox.child.kill();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
}
