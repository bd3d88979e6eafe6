/**
 * MCP stdio messages are newline-delimited JSON. The SDK's read buffer throws once it holds
 * 10 MiB, and the transport then closes: a single oversized request left the session answering
 * nothing more. This guard sits between stdin and the SDK's transport and
 * passes complete lines only; a line over `maxBytes` is dropped without being buffered (only its
 * first and last KiB are kept, to find its id: clients write it first or last), answered with a JSON-RPC error carrying LIMIT_EXCEEDED, and
 * the session goes on. A line that is not JSON is answered as JSON-RPC says (-32700, id null): the
 * SDK's transport drops it without a word, and a client waiting on it waited for ever.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** Below the SDK's own 10 MiB: an accepted line never reaches its limit. */
export const MAX_STDIO_MESSAGE_BYTES = 8 * 1024 * 1024;
const HEAD_BYTES = 1024;
/** JSON-RPC "Invalid Request": the message was never read. */
const INVALID_REQUEST = -32600;
/** JSON-RPC "Parse error": the line is not JSON. */
const PARSE_ERROR = -32700;

export class StdioSizeGuard extends Transform {
  private parts: Buffer[] = [];
  private length = 0;
  private dropping = false;
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);

  constructor(
    private readonly maxBytes: number,
    /** Writes one whole JSON-RPC message line to the client. */
    private readonly reply: (line: string) => void,
    private readonly log: (message: string) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    let rest = chunk;
    while (rest.length > 0) {
      const nl = rest.indexOf(0x0a);
      const piece = nl < 0 ? rest : rest.subarray(0, nl + 1);
      rest = nl < 0 ? Buffer.alloc(0) : rest.subarray(nl + 1);
      this.accept(piece);
      if (nl >= 0) this.endLine();
    }
    cb();
  }

  private accept(piece: Buffer): void {
    if (this.dropping) {
      this.tail = Buffer.concat([this.tail, piece]).subarray(-HEAD_BYTES);
      return;
    }
    if (this.length + piece.length > this.maxBytes) {
      this.dropping = true;
      const all = Buffer.concat([...this.parts, piece]);
      this.head = all.subarray(0, HEAD_BYTES);
      this.tail = all.subarray(-HEAD_BYTES);
      this.parts = [];
      return;
    }
    this.parts.push(piece);
    this.length += piece.length;
  }

  private endLine(): void {
    if (this.dropping) this.refuse();
    else if (this.parts.length) this.pass(Buffer.concat(this.parts));
    this.parts = [];
    this.length = 0;
    this.dropping = false;
  }

  /** A whole line on to the transport when it is JSON (or blank); else the parse error, and nothing passed. */
  private pass(line: Buffer): void {
    const text = line.toString('utf8');
    try {
      JSON.parse(text);
    } catch {
      if (text.trim() !== '') {
        this.log(`answered a line of ${line.length} bytes that is not JSON with a parse error`);
        const error = {
          code: PARSE_ERROR,
          message: 'Parse error: the line is not JSON (MCP stdio carries one JSON-RPC message per line)',
          data: { code: 'INVALID_INPUT' },
        };
        this.reply(JSON.stringify({ jsonrpc: '2.0', id: null, error }) + '\n');
        return;
      }
    }
    this.push(line);
  }

  private refuse(): void {
    const id = idOf(this.head.toString('utf8'), this.tail.toString('utf8'));
    this.log(`dropped an MCP message over ${this.maxBytes} bytes${id === undefined ? '' : ` (id ${JSON.stringify(id)})`}`);
    // without a readable id: id null, as JSON-RPC answers a message it could not read
    const error = {
      code: INVALID_REQUEST,
      message: `LIMIT_EXCEEDED: message over ${this.maxBytes} bytes`,
      data: { code: 'LIMIT_EXCEEDED', details: { limit: 'maxMessageBytes', value: this.maxBytes } },
    };
    this.reply(JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error }) + '\n');
  }

  override _flush(cb: TransformCallback): void {
    if (!this.dropping && this.parts.length) this.pass(Buffer.concat(this.parts));
    cb();
  }
}

const ID = String.raw`"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")`;
/** A top-level id: before any nested object opens, or last before the closing brace. */
const HEAD_ID = new RegExp(String.raw`^\s*\{[^{]*?` + ID);
const TAIL_ID = new RegExp(ID + String.raw`\s*\}\s*$`);

/** The request id of a message, from its first or last KiB. */
function idOf(head: string, tail: string): string | number | undefined {
  const m = TAIL_ID.exec(tail) ?? HEAD_ID.exec(head);
  if (!m) return undefined;
  return m[1]!.startsWith('"') ? (JSON.parse(m[1]!) as string) : Number(m[1]);
}
