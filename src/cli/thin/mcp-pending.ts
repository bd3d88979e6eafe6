/**
 * What a thin `lspgate mcp` remembers of its session (node builtins only): the requests it sent that the
 * daemon has not answered yet, its `initialize` and `notifications/initialized`, and the session
 * state the daemon answered yes to — the resources it subscribed to (`resources/subscribe` minus
 * `resources/unsubscribe`) and its log level (`logging/setLevel`) — to replay on a new daemon.
 * Newline-delimited JSON seen in both directions; the daemon's lines go on to `out`, but for the
 * answers to replayed requests (an error answering a replayed one goes to `note`, for stderr).
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

type Message = { id?: unknown; method?: unknown; params?: unknown; error?: { message?: unknown } };

function parse(line: string): Message | undefined {
  try {
    const m = JSON.parse(line) as unknown;
    return typeof m === 'object' && m !== null && !Array.isArray(m) ? (m as Message) : undefined;
  } catch {
    return undefined;
  }
}

const isId = (id: unknown): id is number | string => typeof id === 'number' || typeof id === 'string';

/** A state-setting request waiting for its answer: applied only once the daemon says yes. */
type Setting = { kind: 'subscribe' | 'unsubscribe'; uri: string } | { kind: 'level'; level: string };

function settingOf(m: Message): Setting | undefined {
  const p = typeof m.params === 'object' && m.params !== null ? (m.params as Record<string, unknown>) : {};
  if ((m.method === 'resources/subscribe' || m.method === 'resources/unsubscribe') && typeof p.uri === 'string') {
    return { kind: m.method === 'resources/subscribe' ? 'subscribe' : 'unsubscribe', uri: p.uri };
  }
  if (m.method === 'logging/setLevel' && typeof p.level === 'string') return { kind: 'level', level: p.level };
  return undefined;
}

/** Ids of the replayed requests: strings no MCP client picks (theirs are its own counter). */
const REPLAY_ID = 'lspgate-replay-';

export class McpPending {
  private readonly pending = new Map<string, unknown>();
  private readonly settings = new Map<string, Setting>();
  private initialize: { line: string; id: string } | undefined;
  private initialized: string | undefined;
  /** Answers not to pass on: the replayed initialize's and the replayed settings' (with what each was). */
  private readonly swallow = new Map<string, { what: string; uri?: string }>();
  private replays = 0;
  readonly subscriptions = new Set<string>();
  level: string | undefined;

  constructor(
    private readonly out: (line: string) => void,
    private readonly note: (line: string) => void = () => undefined,
  ) {}

  readonly fromClient = new Lines((line) => {
    const m = parse(line);
    if (!m || typeof m.method !== 'string') return;
    if (m.method === 'initialize' && isId(m.id)) this.initialize = { line, id: JSON.stringify(m.id) };
    if (m.method === 'notifications/initialized') this.initialized = line;
    if (!isId(m.id)) return;
    this.pending.set(JSON.stringify(m.id), m.id);
    const setting = settingOf(m);
    if (setting) this.settings.set(JSON.stringify(m.id), setting);
  });

  readonly fromDaemon = new Lines((line) => {
    const m = parse(line);
    const answer = m && m.method === undefined && m.id !== undefined ? JSON.stringify(m.id) : undefined;
    if (answer === undefined) return this.out(line);
    const replayed = this.swallow.get(answer);
    if (replayed !== undefined) {
      this.swallow.delete(answer);
      if (!m!.error) return;
      // a subscription the new daemon refuses (its file is gone) is no longer held
      if (replayed.uri !== undefined) this.subscriptions.delete(replayed.uri);
      return this.note(`lspgate: the new daemon refused the replayed ${replayed.what}: ${String(m!.error.message)}`);
    }
    this.pending.delete(answer);
    const setting = this.settings.get(answer);
    this.settings.delete(answer);
    if (setting && !m!.error) this.apply(setting);
    this.out(line);
  });

  private apply(s: Setting): void {
    if (s.kind === 'level') this.level = s.level;
    else if (s.kind === 'subscribe') this.subscriptions.add(s.uri);
    else this.subscriptions.delete(s.uri);
  }

  get waiting(): number {
    return this.pending.size;
  }

  /** One error line per request still waiting (a setting it carried is not applied); `details` beside the reason. */
  failAll(message: string, details: Record<string, unknown> = {}): string {
    const lines = [...this.pending.values()].map(
      (id) =>
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          error: { code: DAEMON_FAILED_RPC_CODE, message, data: { code: 'DAEMON_FAILED', details: { reason: 'connection', ...details } } },
        }) + '\n',
    );
    this.pending.clear();
    this.settings.clear();
    return lines.join('');
  }

  private request(method: string, params: Record<string, unknown>, what: string, uri?: string): string {
    const id = `${REPLAY_ID}${++this.replays}`;
    this.swallow.set(JSON.stringify(id), { what, ...(uri !== undefined ? { uri } : {}) });
    return JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n';
  }

  /**
   * The session to send a new daemon, or undefined before an initialize: the initialize, the
   * initialized notification, the log level and each subscription (their answers are swallowed).
   */
  replay(): string | undefined {
    if (!this.initialize) return undefined;
    this.swallow.clear();
    this.swallow.set(this.initialize.id, { what: 'initialize' });
    let text = this.initialize.line + '\n' + (this.initialized ? this.initialized + '\n' : '');
    if (this.level !== undefined) text += this.request('logging/setLevel', { level: this.level }, `logging/setLevel ${this.level}`);
    for (const uri of this.subscriptions) text += this.request('resources/subscribe', { uri }, `resources/subscribe ${uri}`, uri);
    return text;
  }
}
