// An upstream of bytes for the proxy's memory bench: GET /v3/bytes?mib=N streams N MiB (chunked,
// 64 KiB writes, with backpressure); POST /v3/bytes reads and discards the body and answers its size.
import { createServer } from 'node:http';

const CHUNK = Buffer.alloc(64 * 1024, 7);
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://upstream');
  if (req.method === 'POST') {
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
    });
    req.on('end', () =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ size })),
    );
    return;
  }
  let left = Number(url.searchParams.get('mib') ?? 1) * 16;
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  const pump = () => {
    while (left > 0) {
      left--;
      if (!res.write(CHUNK)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
