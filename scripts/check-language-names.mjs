#!/usr/bin/env node
// `npm run lint:languages`: no language name as a string literal outside src/adapters/ and
// src/config/. What lspgate knows about a language lives in its profile
// (src/adapters/<lang>/profile.ts); code elsewhere asks the profile of a file instead of switching
// on `'go'` or `'python'`, so that adding a language is a servers.json entry and an adapter folder.
// The names checked are every language and languageId of servers.json and every grammar the
// tree-sitter package ships. String literals only (found with the TypeScript parser, so comments
// and longer strings that mention a language are fine). Usage: node scripts/check-language-names.mjs [DIR]
// (default src; a test runs it on a planted tree).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Folders (relative to DIR) where language names belong. */
const OWNERS = ['adapters/', 'config/'];

/**
 * Literals that must stay outside the owners, each with its reason: `file` relative to DIR, the
 * literal, why. Empty today; an entry here is a decision to explain in review.
 */
const ALLOWED = [];

function languageNames() {
  const names = new Set();
  const { servers } = JSON.parse(readFileSync(path.join(here, 'servers.json'), 'utf8'));
  for (const s of servers) {
    for (const l of s.languages ?? []) names.add(l);
    for (const id of Object.values(s.languageIds ?? {})) names.add(id);
  }
  const wasm = path.dirname(require.resolve('@vscode/tree-sitter-wasm'));
  for (const f of readdirSync(wasm)) {
    const m = /^tree-sitter-(.+)\.wasm$/.exec(f);
    if (m) names.add(m[1]);
  }
  return names;
}

function* sources(dir, rel = '') {
  for (const name of readdirSync(path.join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(path.join(dir, r)).isDirectory()) yield* sources(dir, r);
    else if (/\.[cm]?ts$/.test(name) && !name.endsWith('.d.ts')) yield r;
  }
}

function findings(dir, names) {
  const out = [];
  for (const rel of sources(dir)) {
    if (OWNERS.some((o) => rel.startsWith(o))) continue;
    const text = readFileSync(path.join(dir, rel), 'utf8');
    const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && names.has(node.text)) {
        if (!ALLOWED.some((a) => a.file === rel && a.literal === node.text)) {
          const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
          out.push(`${rel}:${line + 1}: '${node.text}'`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

const dir = path.resolve(process.argv[2] ?? path.join(here, 'src'));
const found = findings(dir, languageNames());
if (found.length) {
  console.error(`language names outside ${OWNERS.map((o) => `src/${o}`).join(' and ')} (ask the language profile: src/adapters/languages.ts):`);
  for (const f of found) console.error(`  ${f}`);
  process.exit(1);
}
console.log(`lint:languages: no language-name literal outside ${OWNERS.map((o) => `src/${o}`).join(' and ')}`);
