/**
 * A thin `lspgate mcp`'s copy loop (node builtins only): stdin lines to the daemon, the daemon's lines to
 * stdout. When the daemon dies, every request still waiting is answered with a JSON-RPC error
 * (DAEMON_FAILED, reason connection); then the client reaches the daemon again (starting it),
 * attaches and replays the remembered `initialize`, `notifications/initialized`, log level and
 * resource subscriptions (the replayed requests' answers are swallowed; a refusal goes to stderr),
 * and what the client wrote meanwhile follows. If that fails,
 * stderr says so and the exit status is 1. stdin's end half-closes the socket (the hosted server
 * sees EOF, as on stdio) and the daemon closing it then ends this process with status 0.
 */
import type net from 'node:net';

import { describeJournals, type JournalSummary } from '../../link/journals.js';
import { McpPending } from './mcp-pending.js';

/** A new socket attached with the same relay parameters, its bytes after the attach answer and the daemon's pid; undefined when that failed. */
export type Reattach = () => Promise<{ socket: net.Socket; rest: Buffer; pid?: number } | undefined>;

/** What the apply journals of the daemon with this pid say was written (it died with requests in flight). */
export type JournalsOf = (daemonPid: number | undefined) => JournalSummary[];

const MAX_RECONNECTS = 3;

export function relayMcp(first: net.Socket, already: Buffer, reattach: Reattach, firstPid: number | undefined, journalsOf: JournalsOf): void {
  let socket: net.Socket | undefined;
  let daemonPid = firstPid;
  let inputEnded = false;
  let reconnects = 0;
  const queue: Buffer[] = [];
  const pending = new McpPending(
    (line) => process.stdout.write(line + '\n'),
    (line) => process.stderr.write(line + '\n'),
  );

  const use = (s: net.Socket, rest: Buffer) => {
    socket = s;
    if (rest.length) pending.fromDaemon.feed(rest);
    s.on('data', (chunk: Buffer) => pending.fromDaemon.feed(chunk));
    s.on('error', () => undefined);
    s.once('close', () => void lost(s));
    s.resume();
  };
  const lost = async (s: net.Socket) => {
    if (socket !== s) return;
    socket = undefined;
    if (inputEnded) return process.stdout.write('', () => process.exit(0));
    const why = 'the lspgate daemon closed the connection';
    if (pending.waiting) {
      // a call in flight may have been an apply: say what its journal says was written (never run again)
      const journals = journalsOf(daemonPid);
      process.stdout.write(
        pending.failAll(`${why} before answering; the call was not run again. ${describeJournals(journals)}`, {
          ...(daemonPid ? { daemon_pid: daemonPid } : {}),
          journals,
        }),
      );
    }
    const replay = pending.replay();
    const again = replay && reconnects++ < MAX_RECONNECTS ? await reattach() : undefined;
    if (!again) {
      process.stderr.write(`lspgate: ${why}; exiting (the next start of this client starts the daemon again)\n`);
      return process.stdout.write('', () => process.exit(1));
    }
    const kept = `log level ${pending.level ?? 'default'}, ${pending.subscriptions.size} resource subscription(s)`;
    process.stderr.write(`lspgate: ${why}; attached again (daemon restarted); replayed the session's initialize, ${kept}\n`);
    daemonPid = again.pid;
    use(again.socket, again.rest);
    again.socket.write(replay!);
    for (const chunk of queue.splice(0)) again.socket.write(chunk);
    if (inputEnded) again.socket.end();
  };

  process.stdin.on('data', (chunk: Buffer) => {
    pending.fromClient.feed(chunk);
    if (socket) socket.write(chunk);
    else queue.push(chunk);
  });
  process.stdin.on('end', () => {
    inputEnded = true;
    socket?.end();
  });
  use(first, already);
}
