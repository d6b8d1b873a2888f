// The benchmark's baseline: a plain node:http server that answers each known request URL with
// fixed bytes (the gateway's own body for that request, captured once), so the comparison
// measures everything the gateway does beyond writing bytes to a socket.
//
//   node --import tsx bench/plain-server.ts <bodies.json>
//
// bodies.json: {"<path and query, as sent>": "<body, base64>"}. PORT (default 0) and HOST
// (default 127.0.0.1) as for the gateway; prints "Serving on http://host:port" when ready.
// Exits on SIGTERM/SIGINT and, with EXIT_WITH_PARENT=1, when its stdin closes (the benchmark
// process that holds the other end is gone).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const file = process.argv[2];
if (!file) {
  console.error('usage: plain-server.ts <bodies.json>');
  process.exit(2);
}

const bodies = new Map<string, Buffer>();
for (const [path, base64] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>)) {
  bodies.set(path, Buffer.from(base64, 'base64'));
}
const notFound = Buffer.from('{"error":{"code":404,"message":"Not found"}}');

const server = createServer((req, res) => {
  const body = bodies.get(req.url ?? '');
  res.writeHead(body ? 200 : 404, { 'content-type': 'application/json', 'content-length': (body ?? notFound).length });
  res.end(body ?? notFound);
});

const host = process.env.HOST || '127.0.0.1';
server.listen(Number(process.env.PORT ?? 0), host, () => {
  const { port } = server.address() as AddressInfo;
  console.log(`Serving on http://${host}:${port} (${bodies.size} fixed bodies)`);
});

let stopping = false;
function stop(reason: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${reason}: stopping`);
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2_000).unref();
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
if (process.env.EXIT_WITH_PARENT === '1') {
  process.stdin.on('end', () => stop('stdin closed')).on('error', () => stop('stdin error'));
  process.stdin.resume();
}
