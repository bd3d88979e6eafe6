/**
 * What a thin `lspgate mcp` remembers of its session (light floor): the requests it sent that the
 * daemon has not answered yet, and its `initialize` and `notifications/initialized` (to replay on
 * a new daemon). Newline-delimited JSON seen in both directions; the daemon's lines go on to
 * `out`, but for the answer to a replayed initialize.
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

type Message = { id?: unknown; method?: unknown };

function parse(line: string): Message | undefined {
  try {
    const m = JSON.parse(line) as unknown;
    return typeof m === 'object' && m !== null && !Array.isArray(m) ? (m as Message) : undefined;
  } catch {
    return undefined;
  }
}

const isId = (id: unknown): id is number | string => typeof id === 'number' || typeof id === 'string';

export class McpPending {
  private readonly pending = new Map<string, unknown>();
  private initialize: { line: string; id: string } | undefined;
  private initialized: string | undefined;
  private swallow: string | undefined;

  constructor(private readonly out: (line: string) => void) {}

  readonly fromClient = new Lines((line) => {
    const m = parse(line);
    if (!m || typeof m.method !== 'string') return;
    if (m.method === 'initialize' && isId(m.id)) this.initialize = { line, id: JSON.stringify(m.id) };
    if (m.method === 'notifications/initialized') this.initialized = line;
    if (isId(m.id)) this.pending.set(JSON.stringify(m.id), m.id);
  });

  readonly fromDaemon = new Lines((line) => {
    const m = parse(line);
    const answer = m && m.method === undefined && m.id !== undefined ? JSON.stringify(m.id) : undefined;
    if (answer !== undefined && answer === this.swallow) {
      this.swallow = undefined;
      return;
    }
    if (answer !== undefined) this.pending.delete(answer);
    this.out(line);
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

  /** The session's opening to send a new daemon (its initialize answer will be swallowed), or undefined before one. */
  replay(): string | undefined {
    if (!this.initialize) return undefined;
    this.swallow = this.initialize.id;
    return this.initialize.line + '\n' + (this.initialized ? this.initialized + '\n' : '');
  }
}
