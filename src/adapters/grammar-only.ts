/**
 * Defaults for the languages lspgate parses but ships no server for (the grammar-only profiles,
 * each in its own folder): their profiles hold the syntax tier's declarations query, test conventions, comment
 * syntax and the server to install for semantic operations; the rules only a server's answers feed
 * (type relations, dead code, project packages) are left out, so analyses say they do not cover
 * the language instead of guessing.
 */
import type { ChunkRules, DeclarationRules, LanguageProfile, TestConventions } from './language-profile.js';

export interface GrammarOnlyLanguage {
  name: string;
  languageIds?: string[];
  grammars: Record<string, string>;
  interpreters?: Record<string, string>;
  declarations: NonNullable<LanguageProfile['syntax']['declarations']>;
  tests: TestConventions;
  /** Line comment opening (`//`, `#`). */
  comment: string;
  /** A block comment documents a declaration only when it opens so (Java's `/**`). */
  blockDoc?: string;
  /** What stands for a body a class chunk leaves out. */
  elision: ChunkRules['elision'];
  server: { name: string; install: string };
  /** Rules over the declarations the syntax tier catalogs (how they rank). */
  rules?: DeclarationRules;
  /** Files that make a directory one of the language's projects (ProjectRules.manifests). */
  manifests?: string[];
}

export function grammarOnlyProfile(l: GrammarOnlyLanguage): LanguageProfile {
  return {
    name: l.name,
    languageIds: l.languageIds ?? [],
    grammars: l.grammars,
    ...(l.interpreters ? { interpreters: l.interpreters } : {}),
    syntax: { declarations: l.declarations },
    tests: l.tests,
    comments: { line: l.comment, ...(l.blockDoc ? { blockDoc: l.blockDoc } : {}) },
    declarations: l.rules ?? {},
    types: {},
    deadCode: { entryPoints: ['main'] },
    project: { packageKinds: [], ...(l.manifests ? { manifests: l.manifests } : {}) },
    chunks: { elision: l.elision },
    server: l.server,
  };
}
