/**
 * open_at and list_workspaces.
 */
import { readFileSync, statSync } from 'node:fs';

import type { Position } from 'vscode-languageserver-protocol';

import type { GatewayHandle } from '../../core/workspace.js';
import { isLspgateError, LspgateError } from '../../errors/errors.js';
import { isInside, toRelative } from '../../util/paths.js';
import { containsPrivateKey } from '../../util/secret-files.js';
import { refuseBinary } from '../../util/text-content.js';
import type { ServiceCall } from '../call.js';
import { splitLines } from '../file-context.js';
import { innermostContainingLine } from '../symbols.js';

export interface OpenAtResult {
  file: string;
  start_line: number;
  end_line: number;
  lines: string[];
  symbol?: { name: string; kind: string; qualified_name: string; start_line: number; end_line: number };
}

/**
 * Lines around `line`. Secret files are refused (SECRET_FILE, by resolveInWorkspace); a line
 * outside the file is INVALID_INPUT rather than silently clamped, so a caller never mistakes a
 * clamped window for the one it asked for.
 */
export async function openAt(call: ServiceCall, input: { file: string; line: number; context_lines?: number | undefined }): Promise<OpenAtResult> {
  const abs = call.resolvePath(input.file, { expect: 'file' });
  const size = statSync(abs).size;
  const max = call.env.limits.maxFileBytes;
  if (size > max)
    throw new LspgateError('LIMIT_EXCEEDED', `${toRelative(call.root, abs)} is ${size} bytes, over maxFileBytes ${max}`, { limit: 'maxFileBytes', value: max });
  const text = readFileSync(abs, 'utf8');
  refuseBinary(toRelative(call.root, abs), text);
  if (containsPrivateKey(text))
    throw new LspgateError('SECRET_FILE', `refusing a file that holds a private key: ${toRelative(call.root, abs)}`, {
      path: toRelative(call.root, abs),
      reason: 'private key block',
    });
  const lines = splitLines(text);
  if (input.line < 1 || input.line > lines.length) {
    throw new LspgateError('INVALID_INPUT', `line ${input.line} is outside ${toRelative(call.root, abs)} (1..${lines.length})`, {
      line: input.line,
      lines: lines.length,
    });
  }
  const ctxLines = input.context_lines ?? 10;
  const start = Math.max(1, input.line - ctxLines);
  const end = Math.min(lines.length, input.line + ctxLines);
  const out: OpenAtResult = { file: toRelative(call.root, abs), start_line: start, end_line: end, lines: lines.slice(start - 1, end) };
  call.meta.addSourceFile(abs);
  const symbol = await enclosingSymbol(call, abs, input.line);
  if (symbol) out.symbol = symbol;
  return out;
}

/** The enclosing symbol when a server serves the file; a file no server claims still opens. */
async function enclosingSymbol(call: ServiceCall, abs: string, line1: number): Promise<OpenAtResult['symbol']> {
  if (!call.env.broker.route(abs, call.root)) return undefined;
  let file;
  try {
    file = await call.file(abs);
  } catch (e) {
    if (isLspgateError(e) && (e.code === 'SERVER_NOT_INSTALLED' || e.code === 'UNSUPPORTED_LANGUAGE')) {
      call.meta.warn(`no enclosing symbol: ${e.message}`);
      return undefined;
    }
    throw e;
  }
  const ctx = innermostContainingLine(file, line1 - 1);
  if (!ctx) return undefined;
  const pos: Position = ctx.symbol.range.start;
  return {
    name: ctx.symbol.name,
    kind: call.adapter(file).symbolKind(ctx),
    qualified_name: [...ctx.parents.map((p) => p.name), ctx.symbol.name].join('.'),
    start_line: pos.line + 1,
    end_line: ctx.symbol.range.end.line + 1,
  };
}

export interface WorkspaceInfo {
  id: string;
  root: string;
  languages: string[];
  servers: { id: string; root: string; state: string; pid?: number; rss_bytes?: number; generation: number; crashes: number; progress: string[] }[];
  /** What is derived from the workspace's catalog, per index, with its estimated memory (dropped with the workspace). */
  derived_bytes: Record<string, number>;
}

export function listWorkspaces(gateway: GatewayHandle, call: ServiceCall): { workspaces: WorkspaceInfo[] } {
  const broker = call.env.broker;
  const sessions = broker.existing();
  // info(): live sessions with the RSS of their process trees, and the ones evicted under the memory budget
  const infos = broker.info();
  const workspaces = gateway.workspaces().map((ws) => {
    const mine = sessions.filter((s) => isInside(ws.root, s.root));
    const languages = [...new Set(mine.flatMap((s) => s.entry.languages))].sort();
    return {
      id: ws.id,
      root: ws.root,
      languages,
      servers: infos
        .filter((i) => isInside(ws.root, i.root))
        .map((i) => {
          const entry: WorkspaceInfo['servers'][number] = {
            id: i.serverId,
            root: i.root,
            state: i.state,
            generation: i.generation,
            crashes: i.crashes,
            progress: i.progress,
          };
          if (i.pid !== undefined) entry.pid = i.pid;
          if (i.rssBytes !== undefined) entry.rss_bytes = i.rssBytes;
          return entry;
        }),
      derived_bytes: ws.catalog.derived.sizes(),
    };
  });
  return { workspaces };
}
