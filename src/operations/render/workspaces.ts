/**
 * Markdown of the workspace operations.
 */
import type { DaemonStatusResult, ListWorkspacesResult } from '../contracts/workspaces.js';

export function listWorkspacesMarkdown(r: ListWorkspacesResult): string {
  const out = ['## Workspaces', ''];
  for (const w of r.workspaces) {
    out.push(
      `- **${w.id}** — ${w.root}${w.languages.length ? ` (${w.languages.join(', ')})` : ''}: ${w.catalog.files} files, ${w.catalog.symbols} symbols, ${w.catalog.state}${w.catalog.indexed_at ? `, indexed ${w.catalog.indexed_at}` : ''}${w.catalog.git_head ? `, HEAD ${w.catalog.git_head.slice(0, 12)}` : ''}`,
    );
    for (const s of w.servers)
      out.push(
        `  - ${s.id} @ ${s.root}: ${s.state}${s.pid ? ` pid ${s.pid}` : ''}${s.rss_bytes !== undefined ? `, ${Math.round(s.rss_bytes / 1048576)} MiB` : ''}, generation ${s.generation}, crashes ${s.crashes}${s.progress.length ? `, ${s.progress.join('; ')}` : ''}`,
      );
    if (!w.servers.length) out.push('  - (no server started yet)');
    const derived = Object.entries(w.derived_bytes).filter(([, n]) => n > 0);
    if (derived.length) out.push(`  - derived: ${derived.map(([k, n]) => `${k} ${Math.ceil(n / 1024)} KiB`).join(', ')}`);
  }
  return out.join('\n') + '\n';
}

export function daemonStatusMarkdown(r: DaemonStatusResult): string {
  const mib = (n: number | undefined) => (n === undefined ? '' : `, ${Math.round(n / 1048576)} MiB`);
  const out = r.daemon
    ? [
        `## lspgate daemon ${r.version} (pid ${r.pid})`,
        '',
        `${r.socket}, up ${Math.round((r.uptime_ms ?? 0) / 1000)} s, idle exit ${r.idle_exit_ms} ms${mib(r.rss_bytes)}`,
        `servers stop after ${r.server_idle_ms ? `${r.server_idle_ms} ms unused` : 'never'}; memory budget ${r.memory_budget?.limit_bytes ? `${Math.round(r.memory_budget.limit_bytes / 1048576)} MiB (${r.memory_budget.source})` : 'none'}, servers use${mib(r.memory_budget?.servers_bytes) || ' ?'}`,
        '',
        `### ${r.clients?.length ?? 0} client(s)`,
      ]
    : ['## No daemon: sessions of this process', ''];
  for (const c of r.clients ?? [])
    out.push(`- #${c.id} ${c.frontend}${c.pid ? ` pid ${c.pid}` : ''} @ ${c.root}: attached ${Math.round(c.attached_ms / 1000)} s, ${c.in_flight} in flight`);
  out.push('', `### ${r.sessions.length} session(s)`);
  for (const s of r.sessions)
    out.push(
      `- ${s.server} @ ${s.root}: ${s.state}${s.pid ? ` pid ${s.pid}` : ''}${mib(s.rss_bytes)}, generation ${s.generation}, crashes ${s.crashes}, ${s.open_documents} open document(s)${s.note ? ` (${s.note})` : ''}`,
    );
  return out.join('\n') + '\n';
}
