/**
 * How every long-running mode ends: on SIGINT, SIGTERM, SIGHUP or (stdio modes) stdin EOF, the
 * front-end closes, then `gateway.close()` stops every language server (shutdown + exit, then the
 * process tree), then the process exits. A second signal does not wait: it kills the servers'
 * process groups and exits at once. A stuck close is bounded by a watchdog that does the same.
 */
import type { Logger } from '../util/logger.js';
import type { FrontendGateway } from './host.js';

export interface LifecycleOptions {
  /** Stdio modes: the end of stdin means the client is gone. */
  watchStdin: boolean;
  /** Closes the front-end (transport, HTTP listener) before the gateway. */
  closeFrontend?: () => Promise<void> | void;
  logger: Logger;
  /** The signals that end the process (default SIGINT, SIGTERM, SIGHUP). */
  signals?: readonly NodeJS.Signals[];
  /** Upper bound for a graceful close before servers are killed (default: the longest shutdownMs + 5 s, at least 10 s). */
  closeTimeoutMs?: number;
}

export interface Lifecycle {
  /** Graceful shutdown (idempotent); resolves never: the process exits. */
  shutdown(reason: string, exitCode?: number): Promise<void>;
}

const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

export function installLifecycle(gateway: FrontendGateway, opts: LifecycleOptions): Lifecycle {
  let closing: Promise<void> | undefined;
  const log = opts.logger;

  const shutdown = (reason: string, exitCode = 0): Promise<void> => {
    if (closing) return closing;
    log.info(`shutting down: ${reason}`);
    const watchdog = setTimeout(
      () => {
        log.warn('graceful close timed out: killing language servers');
        killServers(gateway, log);
        process.exit(exitCode || 1);
      },
      opts.closeTimeoutMs ?? defaultCloseTimeout(gateway),
    );
    closing = (async () => {
      try {
        await opts.closeFrontend?.();
      } catch (e) {
        log.debug('front-end close failed', e);
      }
      try {
        await gateway.close();
      } catch (e) {
        log.warn('gateway close failed; killing language servers', e);
        killServers(gateway, log);
      }
      clearTimeout(watchdog);
      process.exit(exitCode);
    })();
    return closing;
  };

  for (const sig of opts.signals ?? (Object.keys(SIGNAL_EXIT) as NodeJS.Signals[])) {
    process.on(sig, () => {
      if (closing) {
        // Second signal: the user does not want to wait for shutdown handshakes.
        log.warn(`${sig} again: killing language servers now`);
        killServers(gateway, log);
        process.exit(SIGNAL_EXIT[sig] ?? 1);
      }
      void shutdown(sig, SIGNAL_EXIT[sig]);
    });
  }
  if (opts.watchStdin) {
    process.stdin.once('end', () => void shutdown('stdin closed'));
    process.stdin.once('close', () => void shutdown('stdin closed'));
  }
  return { shutdown };
}

/** Sessions stop in parallel, each bounded by its entry's shutdownMs: wait a little longer than the longest. */
function defaultCloseTimeout(gateway: FrontendGateway): number {
  const longest = Math.max(0, ...gateway.context.servers.map((s) => s.timeouts.shutdownMs));
  return Math.max(10_000, longest + 5_000);
}

/**
 * Kills every server's process group (sessions spawn their servers as group leaders, so tsserver
 * children of typescript-language-server die too), falling back to the pid alone.
 */
export function killServers(gateway: FrontendGateway, log?: Logger): void {
  let infos: { pid?: number }[] = [];
  try {
    infos = gateway.context.broker.info();
  } catch (e) {
    log?.debug('broker info failed', e);
  }
  for (const { pid } of infos) {
    if (!pid) continue;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}
