/**
 * The checks in front of the HTTP transport, in order: Host and Origin (DNS rebinding: a web page
 * in a browser must not reach a loopback server through a name it controls) → 403, bearer token
 * → 401. The body limit (413) is applied by the Node adapter while it reads the body.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';

import { writePrivateFile } from '../../util/private-files.js';

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

/** `127.0.0.1:<port>`, `localhost:<port>`, `[::1]:<port>`: the only names this listener answers to. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

export function checkHostAndOrigin(req: IncomingMessage, port: number): GuardVerdict {
  const allowed = allowedHosts(port);
  const host = req.headers.host?.toLowerCase();
  if (!host || !allowed.has(host)) return { ok: false, status: 403, message: `forbidden Host header: ${String(host).slice(0, 100)}` };
  const origin = req.headers.origin;
  // Non-browser MCP clients send no Origin; a browser always does, and then it must be ours.
  if (origin === undefined) return { ok: true };
  let originHost: string;
  try {
    const u = new URL(origin);
    if (u.protocol !== 'http:') throw new Error('scheme');
    originHost = u.host.toLowerCase();
  } catch {
    return { ok: false, status: 403, message: `forbidden Origin header: ${origin.slice(0, 100)}` };
  }
  if (!allowed.has(originHost)) return { ok: false, status: 403, message: `forbidden Origin header: ${origin.slice(0, 100)}` };
  return { ok: true };
}

export function checkBearer(req: IncomingMessage, token: string): GuardVerdict {
  const header = req.headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const given = Buffer.from(m?.[1] ?? '');
  const want = Buffer.from(token);
  // Constant-time comparison; lengths differ only for wrong tokens.
  if (!m || given.length !== want.length || !timingSafeEqual(given, want)) {
    return { ok: false, status: 401, message: 'missing or wrong bearer token' };
  }
  return { ok: true };
}

export interface TokenSource {
  token: string;
  /** Where the generated token was written (0600); undefined when it came from LSPGATE_TOKEN. */
  file?: string;
}

/** LSPGATE_TOKEN, else 32 random bytes written to `<cacheDir>/http/token-<port>` with mode 0600. */
export function resolveToken(cacheDir: string, port: number, env: NodeJS.ProcessEnv = process.env): TokenSource {
  const fromEnv = env.LSPGATE_TOKEN?.trim();
  if (fromEnv) return { token: fromEnv };
  const token = randomBytes(32).toString('hex');
  const dir = path.join(cacheDir, 'http');
  const file = path.join(dir, `token-${port}`);
  // a new 0600 file renamed over any older one (whose mode a plain write would keep)
  writePrivateFile(file, token + '\n');
  return { token, file };
}
