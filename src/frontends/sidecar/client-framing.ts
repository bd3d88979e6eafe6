/**
 * The sidecar's guard on what its client sends: after a wrong, negative or
 * non-numeric Content-Length, a missing header or a 100 MB announced length, vscode-jsonrpc's
 * reader went on from an unknown point in the stream (or buffered whatever was announced) and
 * later valid requests got no answer and no error. The same FrameGuard that checks servers' stdout
 * (bounded header, numeric length under a cap) now sits in front of the sidecar's reader. On the
 * first violation the client gets a JSON-RPC parse error (-32700, id null) naming the reason, the
 * reason goes to the log (stderr), and the sidecar closes: after broken framing there is no safe
 * point to resynchronise at (a body may contain anything that looks like a header).
 */
import type { Readable, Writable } from 'node:stream';

import { FrameGuard } from '../../lsp/frame-guard.js';

/** Largest request the sidecar accepts (a whole-workspace input is far below this). */
export const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024 * 1024;
const MAX_HEADER_BYTES = 8192;

export const PARSE_ERROR = -32700;

/** `input` through the guard; `onBroken` runs once, after the parse error was written. */
export function guardClientInput(input: Readable, output: Writable, onBroken: (reason: string) => void): Readable {
  const guard = new FrameGuard({
    maxMessageBytes: MAX_CLIENT_MESSAGE_BYTES,
    maxHeaderBytes: MAX_HEADER_BYTES,
    onViolation: (reason) => {
      input.unpipe(guard);
      const body = Buffer.from(
        JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: `Parse error: ${reason}; closing the connection` } }),
        'utf8',
      );
      // framed by hand: the connection's writer is not used for a response to no request
      output.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]), () => onBroken(reason));
    },
  });
  input.pipe(guard);
  return guard;
}
