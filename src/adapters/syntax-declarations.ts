/**
 * Named declarations of a text that no server has open — a file as it was at a git ref, which
 * changed_symbols compares the working tree with: functions, classes and the like, with their
 * members, qualified like the catalog qualifies them (`Cart.total`, Go `Square.Area` by receiver).
 * Declarations inside function bodies, or inside any declaration that is no container, are not
 * listed (they belong to it). What a declaration is comes from its language profile's
 * `namedDeclarations` hook; syntax only: nothing here is resolved.
 */
import { inSyntaxWorker, type ParseBounds } from '../syntax/job-pool.js';
import { type SyntaxNode, WHOLE_FILE_QUERY, withSyntaxTree } from '../syntax/syntax.js';
import { syntaxOf } from './languages.js';
import type { NamedDeclaration } from './syntax-hooks.js';

export interface SyntaxDeclaration {
  name: string;
  qualified_name: string;
  kind: string;
  /** 1-based, inclusive. */
  line: number;
  end_line: number;
  /** 1-based line of the name. */
  selection_line: number;
}

/** Declarations whose members are listed under their name; the others' bodies are not entered. */
const CONTAINERS = new Set(['class', 'interface', 'trait', 'enum', 'namespace']);

/** syntaxDeclarations in a syntax worker, within the workspace's parse bounds (TIMEOUT / LIMIT_EXCEEDED naming the file past them). */
export function boundedSyntaxDeclarations(relPath: string, text: string, bounds?: ParseBounds, signal?: AbortSignal): Promise<SyntaxDeclaration[] | undefined> {
  const syntax = syntaxOf(relPath);
  if (!syntax?.profile.syntax.namedDeclarations) return Promise.resolve(undefined);
  return inSyntaxWorker(
    { metaUrl: import.meta.url, module: 'syntax-declarations', grammar: syntax.grammar, bounds, signal },
    'syntaxDeclarations',
    relPath,
    text,
  );
}

/** The declarations of a text, or undefined when no profile reads declarations of the file. */
export async function syntaxDeclarations(relPath: string, text: string): Promise<SyntaxDeclaration[] | undefined> {
  const syntax = syntaxOf(relPath);
  const hook = syntax?.profile.syntax.namedDeclarations;
  if (!syntax || !hook) return undefined;
  return withSyntaxTree(
    syntax.grammar,
    text,
    (root, query) => {
      const locals = new Set<number>();
      const found = new Map<number, { node: SyntaxNode; decl: NamedDeclaration }>();
      for (const { name, node } of query!.captures(root, WHOLE_FILE_QUERY)) {
        if (name === 'local') locals.add(node.id);
        else if (name === 'declaration' && !found.has(node.id)) {
          const decl = hook.read(node);
          if (decl) found.set(node.id, { node, decl });
        }
      }
      const out: SyntaxDeclaration[] = [];
      for (const { node, decl } of found.values()) {
        const chain = containers(node, locals, found);
        if (!chain) continue;
        out.push({
          name: decl.name,
          qualified_name: [...(decl.owner ? [decl.owner] : chain), decl.name].join('.'),
          kind: decl.kind,
          line: node.startPosition.row + 1,
          end_line: node.endPosition.row + 1,
          selection_line: decl.at.startPosition.row + 1,
        });
      }
      return out.sort((a, b) => a.line - b.line || a.selection_line - b.selection_line);
    },
    hook.query,
  );
}

/** The names of the containers around a declaration, outermost first; undefined when it is local to a function or a non-container. */
function containers(node: SyntaxNode, locals: Set<number>, found: Map<number, { decl: NamedDeclaration }>): string[] | undefined {
  const chain: string[] = [];
  for (let p = node.parent; p; p = p.parent) {
    if (locals.has(p.id)) return undefined;
    const outer = found.get(p.id)?.decl;
    if (!outer) continue;
    if (!CONTAINERS.has(outer.kind)) return undefined;
    chain.unshift(outer.name);
  }
  return chain;
}
