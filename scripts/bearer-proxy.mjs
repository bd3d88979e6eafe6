#!/usr/bin/env node
/**
 * `node scripts/bearer-proxy.mjs <listen-port> <target-url> <token>`: forwards HTTP to lspgate's MCP
 * endpoint adding `Authorization: Bearer <token>`, for MCP tools that cannot send headers (the
 * conformance suite). Host and Origin naming this proxy are rewritten to the target; any other
 * Host or Origin passes unchanged, so lspgate's DNS-rebinding guard still answers 403 to them.
 * Loopback only. Prints `listening <url>` on stdout when ready.
 */
import http from 'node:http';

const [portArg, targetArg, token] = process.argv.slice(2);
if (!portArg || !targetArg || !token) {
  process.stderr.write('usage: bearer-proxy.mjs <listen-port> <target-url> <token>\n');
  process.exit(2);
}
const target = new URL(targetArg);
const server = http.createServer((req, res) => {
  const port = server.address().port;
  const ours = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const headers = { ...req.headers, authorization: `Bearer ${token}` };
  if (ours.has(String(req.headers.host))) headers.host = target.host;
  if (req.headers.origin && ours.has(new URL(req.headers.origin).host)) headers.origin = `${target.protocol}//${target.host}`;
  const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  up.on('error', () => (res.headersSent ? res.end() : res.writeHead(502).end()));
  req.pipe(up);
  res.on('close', () => up.destroy());
});
server.listen(Number(portArg), '127.0.0.1', () => process.stdout.write(`listening http://127.0.0.1:${server.address().port}${target.pathname}\n`));
