/**
 * `lspgate publish --to <postgres-url>`: writes the workspace's index at its git HEAD into the
 * published index (catalog/published/writer.ts), in one transaction, incrementally by file hash.
 * Run once per commit (a team's CI). The workspace is cataloged in this process by the same
 * catalog and chunker every operation uses; nothing is parsed another way. A working tree that
 * differs from HEAD is refused: what is published under a commit must be that commit.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { recordedCalls } from '../catalog/published/call-edges.js';
import { connectIndex } from '../catalog/published/connect.js';
import { repositoryName } from '../catalog/published/repository.js';
import { isPostgresUrl, redactUrl } from '../catalog/published/url.js';
import { type FileBody, publishCommit, type PublishReport } from '../catalog/published/writer.js';
import { INDEX_VERSION } from '../catalog/store.js';
import { identityChecksum } from '../chunks/embedder.js';
import { embeddingText } from '../chunks/vectors.js';
import { LspgateError } from '../errors/errors.js';
import { guardedParse } from '../frontends/operation-args.js';
import { Gateway } from '../gateway/gateway.js';
import { defaultEmbedder } from '../service/search/chunk-ranking.js';
import { syncChunks } from '../service/search/chunk-sync.js';
import { configuredEmbedder } from '../service/search/embedder-config.js';
import { indexDbOf } from '../service/search/index-db.js';
import { headCommit } from '../util/git.js';
import { runGit } from '../util/git.js';

const OPTIONS = {
  to: { type: 'string' },
  root: { type: 'string' },
  repo: { type: 'string' },
  servers: { type: 'string', multiple: true },
  'no-vectors': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const PUBLISH_HELP = `lspgate publish --to <postgres-url> [--root DIR] [--repo NAME] [--no-vectors] [--json]

Writes the workspace's index (files, symbols, chunks, vectors, the call edges its database recorded)
at its git HEAD into PostgreSQL, in one transaction; files published before with the same path and
bytes are shared, not written again.
The repository's name: --repo, else LSPGATE_INDEX_REPO, else the origin remote (github.com/org/repo),
else the folder's name. Give the password through PGPASSWORD or ~/.pgpass rather than the URL.`;

export async function runPublishCommand(argv: string[]): Promise<number> {
  const { values } = guardedParse({ args: argv, options: OPTIONS, strict: true, allowPositionals: false });
  if (values.help) {
    process.stdout.write(PUBLISH_HELP + '\n');
    return 0;
  }
  const url = values.to?.trim();
  if (!url || !isPostgresUrl(url))
    throw new LspgateError('INVALID_INPUT', `publish needs --to <postgres://...>${url ? `, got ${redactUrl(url).slice(0, 80)}` : ''}`);
  const root = path.resolve(values.root ?? process.cwd());
  const sha = await headCommit(root);
  if (!sha) throw new LspgateError('INVALID_INPUT', `${root} has no git commit to publish`);
  await assertClean(root);
  const repo = values.repo?.trim() || (await repositoryName(root));
  const gateway = await Gateway.create({ root, serversFiles: values.servers ?? [] });
  try {
    const t0 = Date.now();
    const ws = await gateway.openWorkspace(root);
    await ws.catalog.build();
    const files = ws.catalog.files();
    const t1 = Date.now();
    const chunks = (await syncChunks(ws, gateway.context.limits)).index;
    const t2 = Date.now();
    const embedder = values['no-vectors'] ? undefined : (configuredEmbedder() ?? defaultEmbedder);
    const identity = embedder?.identity();
    const load = async (rel: string): Promise<FileBody> => {
      const list = chunks.fileChunks(rel);
      const vectors = embedder && list.length ? await embedder.embed(list.map(embeddingText)) : undefined;
      return { content: textOf(await readFile(path.join(ws.root, rel))), chunks: list, ...(vectors ? { vectors } : {}) };
    };
    const conn = await connectIndex(url, { readOnly: false });
    try {
      const report = await publishCommit(conn, {
        repo,
        sha,
        indexVersion: INDEX_VERSION,
        files,
        load,
        idioms: (rel) => chunks.fileIdioms(rel)?.idioms,
        calls: recordedCalls(indexDbOf(ws, gateway.context.cacheDir)),
        ...(identity ? { embedder: { checksum: identityChecksum(identity), dim: identity.dim, identity } } : {}),
      });
      const timings = { catalog_ms: t1 - t0, chunks_ms: t2 - t1, write_ms: Date.now() - t2 };
      process.stdout.write(values.json ? JSON.stringify({ ...report, ...timings }, null, 2) + '\n' : reportText(report, conn.shown, timings));
      return 0;
    } finally {
      await conn.close();
    }
  } finally {
    await gateway.close();
  }
}

/** A file with local changes (or untracked files) would be published under a commit it is not. */
async function assertClean(root: string): Promise<void> {
  const r = await runGit(['status', '--porcelain', '--untracked-files=normal'], { cwd: root, timeout: 30_000 });
  if (r.exitCode !== 0) throw new LspgateError('INVALID_INPUT', `git status failed in ${root}: ${String(r.stderr).trim().slice(0, 200)}`);
  const dirty = String(r.stdout).split('\n').filter(Boolean);
  if (dirty.length) {
    throw new LspgateError('INVALID_INPUT', `the working tree differs from HEAD in ${dirty.length} path(s); commit or stash them before publishing`, {
      paths: dirty.slice(0, 10).map((l) => l.slice(3)),
    });
  }
}

/** The file's text for the row, or undefined when it is not UTF-8 text (PostgreSQL's text holds no NUL). */
function textOf(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function reportText(r: PublishReport, shown: string, t: Record<string, number>): string {
  return [
    `published ${r.repository}@${r.commit.slice(0, 12)} to ${shown} (catalog ${t.catalog_ms} ms, chunks ${t.chunks_ms} ms, write ${t.write_ms} ms)`,
    `  files: ${r.files} (${r.new_files} new), symbols: ${r.symbols} (${r.new_symbols} new), chunks written: ${r.chunks}, vectors written: ${r.vectors} (${r.vector_column})`,
    ...r.warnings.map((w) => `  warning: ${w}`),
    '',
  ].join('\n');
}
