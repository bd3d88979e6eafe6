/**
 * Markdown of the chunk search operations.
 */
import type { IndexStatsResult, SearchCodeResult, SearchResult, VerifyCitationResult } from '../contracts/chunks.js';
import { corpusLines } from './must-keep-lines.js';

export function searchCodeMarkdown(r: SearchCodeResult): string {
  return (
    [
      `## ${r.hits.length} hit(s) for "${r.query}" (${r.mode})`,
      '',
      ...r.hits.map(
        (h) =>
          `- ${h.citation.file}:${h.citation.start_line}-${h.citation.end_line} ${h.chunk.symbol_name ?? ''} (${h.chunk.chunk_kind}${h.chunk.tier ? ` tier ${h.chunk.tier} ${h.chunk.marker ?? ''}` : ''}, ${h.score.normalized.toFixed(2)})${h.stale_citation ? ' **stale**' : ''}${h.symbol ? ` \`${h.symbol.symbol_id}\`` : ''}${h.pieces ? ` (also lines ${h.pieces.join(', ')})` : ''}`,
      ),
    ].join('\n') + '\n'
  );
}

export function searchMarkdown(r: SearchResult): string {
  return (
    [`## ${r.returned} of ${r.total} result(s)`, '', ...r.results.map((x) => `- ${x.anchor.file}:${x.anchor.line} (${(x.score ?? 0).toFixed(2)})`)].join('\n') +
    '\n'
  );
}

export function verifyCitationMarkdown(r: VerifyCitationResult): string {
  return `${r.citation.file}:${r.citation.start_line}-${r.citation.end_line}: ${r.stale ? 'stale' : 'holds'} (content ${r.content_matches ? 'matches' : 'differs'}, commit ${r.commit_moved ? `moved to ${r.current_head.slice(0, 12)}` : 'is HEAD'})${r.moved_to ? `; now at lines ${r.moved_to.start_line}-${r.moved_to.end_line}` : ''}\n`;
}

export function indexStatsMarkdown(r: IndexStatsResult): string {
  return `${r.chunk_count} chunks (${Object.entries(r.chunk_kinds)
    .map(([k, n]) => `${n} ${k}`)
    .join(
      ', ',
    )}) in ${r.file_count} files, ${r.bm25_terms} terms, ${r.text_bytes} bytes; embeddings: ${r.embedding_model} (dim ${r.embedding_dim}, ${r.vector_count} vectors${r.embedder_matches ? '' : ', built by another embedder: reindex'}); ${r.index_size_bytes} bytes on disk; HEAD ${r.indexed_head || '(not git)'}; built ${r.built_at}\n${corpusLines(r.flow_corpus, r.policy)}`;
}
