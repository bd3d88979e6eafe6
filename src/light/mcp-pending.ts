/**
 * The MCP requests a thin client has sent and the daemon has not answered yet (light floor):
 * newline-delimited JSON seen in both directions. If the daemon dies, each is answered with a
 * JSON-RPC error (DAEMON_FAILED, reason connection) so the MCP client never waits for an answer
 * that cannot come.
 */
import { StringDecoder } from 'node:string_decoder';

/** JSONRPC_ERROR_CODES.DAEMON_FAILED (src/frontends/sidecar/error-codes.ts; this floor cannot import it). */
export const DAEMON_FAILED_RPC_CODE = -32040;

class Lines {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';

  constructor(private readonly onLine: (line: string) => void) {}

  feed(chunk: Buffer): void {
    const parts = (this.partial + this.decoder.write(chunk)).split('\n');
    this.partial = parts.pop() ?? '';
    for (const p of parts) if (p.trim()) this.onLine(p);
  }
}

function parse(line: string): { id?: unknown; method?: unknown } | undefined {
  try {
    const m = JSON.parse(line) as unknown;
    return typeof m === 'object' && m !== null && !Array.isArray(m) ? (m as { id?: unknown; method?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

export class McpPending {
  private readonly pending = new Map<string, unknown>();
  readonly fromClient = new Lines((line) => {
    const m = parse(line);
    if (m && typeof m.method === 'string' && (typeof m.id === 'number' || typeof m.id === 'string')) this.pending.set(JSON.stringify(m.id), m.id);
  });
  readonly fromDaemon = new Lines((line) => {
    const m = parse(line);
    if (m && m.method === undefined && m.id !== undefined) this.pending.delete(JSON.stringify(m.id));
  });

  /** One error line per request still waiting. */
  failAll(message: string): string {
    const lines = [...this.pending.values()].map(
      (id) =>
        JSON.stringify({ jsonrpc: '2.0', id, error: { code: DAEMON_FAILED_RPC_CODE, message, data: { code: 'DAEMON_FAILED', details: { reason: 'connection' } } } }) + '\n',
    );
    this.pending.clear();
    return lines.join('');
  }
}
