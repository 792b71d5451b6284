// The Docker HEALTHCHECK: exits 0 when the sandbox on $PORT answers /healthz with 200, 1 otherwise
// (503 while its store cannot write: a full disk, PostgreSQL unreachable; see docs/storage.md).
const port = process.env.PORT ?? '8080';
try {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
