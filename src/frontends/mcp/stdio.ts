/**
 * `lspgate mcp`: MCP over stdio. serveStdio owns the era decision per connection (a 2025-11-25
 * `initialize` or a 2026-07-28 `server/discover` opening) and builds servers from our factory.
 */
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';

import type { FrontendGateway } from '../host.js';
import { installLifecycle } from '../lifecycle.js';
import { createMcpServer } from './server.js';
import { MAX_STDIO_MESSAGE_BYTES, StdioSizeGuard } from './stdio-size-guard.js';

export function runMcpStdio(gateway: FrontendGateway, tools?: ReadonlySet<string>, warnings: readonly string[] = []): void {
  const logger = gateway.context.logger.child('mcp');
  const guard = new StdioSizeGuard(
    MAX_STDIO_MESSAGE_BYTES,
    (line) => process.stdout.write(line),
    (m) => logger.warn(m),
  );
  process.stdin.pipe(guard);
  const handle = serveStdio(() => createMcpServer(gateway, tools, { warnings }), {
    transport: new StdioServerTransport(guard, process.stdout),
    onerror: (e) => logger.warn('mcp stdio error', e),
  });
  installLifecycle(gateway, { watchStdin: true, closeFrontend: () => handle.close(), logger });
}
