// The Docker HEALTHCHECK: exits 0 when the sandbox on $PORT answers /healthz, 1 otherwise.
const port = process.env.PORT ?? '8080';
try {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
