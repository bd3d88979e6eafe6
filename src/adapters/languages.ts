/**
 * The language registry: every language profile lspgate knows (language-profile.ts), found by its
 * name, an LSP languageId, or a file's extension. Server adapters point into it (an adapter says
 * which languages it serves); a language can have a profile and no server. Adding a language is a
 * profile in its adapter folder and one line in PROFILES.
 */
import path from 'node:path';
import type { LanguageProfile, SyntaxHook } from './language-profile.js';
import { goProfile } from './go/profile.js';
import { phpProfile } from './php/profile.js';
import { pythonProfile } from './python/profile.js';
import { javascriptProfile, typescriptProfile } from './typescript/profile.js';
import { bashProfile } from './bash/profile.js';
import { cppProfile } from './cpp/profile.js';
import { csharpProfile } from './csharp/profile.js';
import { cssProfile } from './css/profile.js';
import { javaProfile } from './java/profile.js';
import { rubyProfile } from './ruby/profile.js';
import { rustProfile } from './rust/profile.js';

/**
 * In the order reports list languages' manifests and packages. The last seven have a grammar and
 * no server shipped with lspgate: the syntax tier answers for them (grammar-only.ts).
 */
const PROFILES: readonly LanguageProfile[] = [
  typescriptProfile,
  javascriptProfile,
  goProfile,
  pythonProfile,
  phpProfile,
  javaProfile,
  csharpProfile,
  cppProfile,
  rustProfile,
  rubyProfile,
  bashProfile,
  cssProfile,
];

const byName = new Map<string, LanguageProfile>();
const byExtension = new Map<string, LanguageProfile>();
for (const p of PROFILES) {
  for (const id of [p.name, ...p.languageIds]) byName.set(id, p);
  for (const ext of Object.keys(p.grammars)) byExtension.set(ext, p);
}

export function languageProfiles(): readonly LanguageProfile[] {
  return PROFILES;
}

/** The profile of a descriptor language or LSP languageId, or undefined when lspgate has none. */
export function languageProfile(language: string | undefined): LanguageProfile | undefined {
  return language === undefined ? undefined : byName.get(language);
}

/** The descriptor language of an LSP languageId (`typescriptreact` → `typescript`); unknown ids are their own language. */
export function languageOfId(languageId: string): string {
  return byName.get(languageId)?.name ?? languageId;
}

function extensionOf(relPath: string): string {
  return path.extname(relPath).toLowerCase();
}

/**
 * The profile of a file: by its language when the caller knows it (the server's languageId decides,
 * e.g. for extensions a servers.json entry adds), else by its extension.
 */
export function profileOf(relPath: string, language?: string): LanguageProfile | undefined {
  return languageProfile(language) ?? byExtension.get(extensionOf(relPath));
}

/** The profile and grammar that parse a file, by its extension; undefined when lspgate parses no such files. */
export function syntaxOf(relPath: string): { profile: LanguageProfile; grammar: string } | undefined {
  const ext = extensionOf(relPath);
  const profile = byExtension.get(ext);
  const grammar = profile?.grammars[ext];
  return profile && grammar ? { profile, grammar } : undefined;
}

export interface DeclaredQuery {
  profile: string;
  /** The syntax hook (`imports`, `patterns`, `complexity` …). */
  concern: string;
  grammar: string;
  source: string;
}

/** Every (query, grammar) pair a profile declares: each hook's query for each grammar of the profile. */
export function syntaxQueries(profile: LanguageProfile): DeclaredQuery[] {
  const grammars = [...new Set(Object.values(profile.grammars))];
  const out: DeclaredQuery[] = [];
  for (const [concern, hook] of Object.entries(profile.syntax) as [string, Partial<SyntaxHook> | undefined][]) {
    if (hook?.query !== undefined) for (const grammar of grammars) out.push({ profile: profile.name, concern, grammar, source: hook.query });
  }
  return out;
}
