/**
 * What `lspgate repl` changes in node:repl besides its evaluation (eval-queue.ts): unknown
 * dot-commands answered through the one queue, and completion of operation flags and symbol names.
 */
import type { REPLServer } from 'node:repl';

import type { FrontendGateway } from '../host.js';
import { inputFields } from '../input-fields.js';
import { nearestName } from '../nearest-name.js';
import type { SerialQueue } from './eval-queue.js';

type Completer = (line: string, cb: (err: Error | null, result: [string[], string]) => void) => void;

/**
 * Unknown dot-commands: node:repl would print "Invalid REPL keyword" at once, ahead of the output of
 * commands still queued. It looks commands up in `server.commands`: a proxy answers unknown keywords
 * with a command that replies through the queue.
 */
export function answerUnknownCommands(server: REPLServer, queue: SerialQueue, write: (s: string) => void, prompt: () => void): void {
  type CommandTable = Record<string, { help?: string; action: (this: REPLServer, rest: string) => void }>;
  const mutableCommands = server as unknown as { commands: CommandTable };
  mutableCommands.commands = new Proxy(mutableCommands.commands, {
    get(target, key, receiver) {
      const found = Reflect.get(target, key, receiver) as unknown;
      if (found !== undefined || typeof key !== 'string') return found;
      return {
        action() {
          const near = nearestName(key, Object.keys(target));
          const hint = near ? `; did you mean .${near}?` : '';
          void queue.enqueue(async () => write(`unknown command .${key.slice(0, 100)}${hint} (.help lists them)`)).finally(prompt);
        },
      };
    },
  });
}

/** After `.command `: `--` completes the operation's flags, anything else a symbol name. */
export function completeCommandArgs(server: REPLServer, gateway: FrontendGateway, names: { complete(prefix: string): Promise<string[]> }): void {
  const mutable = server as unknown as { completer: Completer };
  const defaultCompleter = mutable.completer;
  mutable.completer = (line, cb) => {
    const m = /^\s*\.(\S+)\s+(?:.*\s)?(\S*)$/.exec(line);
    if (!m) return defaultCompleter.call(server, line, cb);
    const [, cmd, word] = m as unknown as [string, string, string];
    const op = gateway.operations().find((o) => o.name === cmd || o.repl?.command === cmd);
    if (word.startsWith('--') && op) {
      const flags = inputFields(op)
        .map((f) => `--${f.name}`)
        .concat('--json');
      return cb(null, [flags.filter((f) => f.startsWith(word)), word]);
    }
    void names.complete(word).then((hits) => cb(null, [hits, word]));
  };
}
