// The benchmark's baseline: a plain node:http server that answers each known request URL with
// fixed bytes (the gateway's own response to that request, captured once: its headers and
// body), so the comparison measures everything the gateway does beyond writing those bytes to
// a socket. The headers are captured through fetch, so their names arrive lowercased and
// sorted: the same names and values, the same number of bytes, in another order and case. With PLAIN_HEADERS=minimal it sends the body with only Content-Type and
// Content-Length instead (the baseline of the runs before 2026-11-22 04:30 UTC).
//
//   node --import tsx bench/plain-server.ts <responses.json>
//
// responses.json: {"<path and query, as sent>": {"body": "<base64>", "headers": ["name",
// "value", ...]}}, the headers without Content-Length, Date, Connection and Keep-Alive (node
// writes those for both servers). PORT (default 0) and HOST (default 127.0.0.1) as for the
// gateway; prints "Serving on http://host:port" when ready.
// Exits on SIGTERM/SIGINT and, with EXIT_WITH_PARENT=1, when its stdin closes (the benchmark
// process that holds the other end is gone).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const file = process.argv[2];
if (!file) {
  console.error('usage: plain-server.ts <responses.json>');
  process.exit(2);
}

interface Captured {
  body: string;
  headers: string[];
}

const minimal = process.env.PLAIN_HEADERS === 'minimal';
const responses = new Map<string, { body: Buffer; headers: string[] }>();
for (const [path, captured] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Captured>)) {
  const body = Buffer.from(captured.body, 'base64');
  const headers = minimal ? ['content-type', 'application/json'] : captured.headers;
  responses.set(path, { body, headers: [...headers, 'content-length', String(body.length)] });
}
const notFound = Buffer.from('{"error":{"code":404,"message":"Not found"}}');
const notFoundHeaders = ['content-type', 'application/json', 'content-length', String(notFound.length)];

const server = createServer((req, res) => {
  const response = responses.get(req.url ?? '');
  res.writeHead(response ? 200 : 404, response?.headers ?? notFoundHeaders);
  res.end(response?.body ?? notFound);
});

const host = process.env.HOST || '127.0.0.1';
server.listen(Number(process.env.PORT ?? 0), host, () => {
  const { port } = server.address() as AddressInfo;
  console.log(`Serving on http://${host}:${port} (${responses.size} fixed responses, ${minimal ? 'minimal headers' : "the gateway's headers"})`);
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
