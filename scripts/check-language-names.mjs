#!/usr/bin/env node
// `npm run lint:languages`: no language knowledge as a string literal outside src/adapters/ and
// src/config/. What lspgate knows about a language lives in its profile
// (src/adapters/<lang>/profile.ts) or its servers.json entry; code elsewhere asks the profile of a
// file or reads the entry instead of switching on `'go'`, `'gopls'`, `'go.mod'` or `'.go'`, so that
// adding a language is a profile folder (and a servers.json entry for a server). The literals checked:
// every language, languageId and server id of servers.json, every grammar the tree-sitter package
// ships, every project manifest (the profiles' `manifests`, the entries' root markers) and every
// extension (the profiles' `grammars`, the entries' `extensions`). String literals only (found with
// the TypeScript parser, so comments and longer strings that mention them are fine).
// Usage: node scripts/check-language-names.mjs [DIR] (default src; a test runs it on a planted tree).
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
 * literal, why. An entry here is a decision to explain in review.
 */
const ALLOWED = [
  { file: 'link/paths.ts', literal: 'package.json', why: "lspgate's own package root and version, not a workspace's project" },
  { file: 'util/worker-script.ts', literal: '.ts', why: "whether lspgate's own module runs from its TypeScript sources (the test runner)" },
  { file: 'link/full-cli.ts', literal: '.js', why: "whether lspgate's own module runs compiled (a bundle beside it) or from its TypeScript sources" },
];

/** String literals of `name: [...]` arrays and the keys of `name: {...}` objects in the adapters' sources. */
function profileLiterals(property, form) {
  const out = new Set();
  const adapters = path.join(here, 'src/adapters');
  for (const rel of sources(adapters)) {
    const sf = ts.createSourceFile(rel, readFileSync(path.join(adapters, rel), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isPropertyAssignment(node) && node.name.getText(sf) === property) {
        const init = node.initializer;
        if (form === 'array' && ts.isArrayLiteralExpression(init)) for (const e of init.elements) if (ts.isStringLiteral(e)) out.add(e.text);
        if (form === 'keys' && ts.isObjectLiteralExpression(init))
          for (const p of init.properties) if (p.name && ts.isStringLiteral(p.name)) out.add(p.name.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

function languageNames() {
  const names = new Set();
  const { servers } = JSON.parse(readFileSync(path.join(here, 'servers.json'), 'utf8'));
  for (const s of servers) {
    names.add(s.id);
    for (const l of s.languages ?? []) names.add(l);
    for (const id of Object.values(s.languageIds ?? {})) names.add(id);
    for (const m of [...(s.rootMarkers ?? []), ...(s.workspaceMarkers ?? [])]) names.add(m);
    for (const e of s.extensions ?? []) names.add(e);
  }
  const wasm = path.dirname(require.resolve('@vscode/tree-sitter-wasm'));
  for (const f of readdirSync(wasm)) {
    const m = /^tree-sitter-(.+)\.wasm$/.exec(f);
    if (m) names.add(m[1]);
  }
  for (const m of profileLiterals('manifests', 'array')) names.add(m);
  for (const e of profileLiterals('grammars', 'keys')) names.add(e);
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
  console.error(
    `language names, server ids, manifests or extensions outside ${OWNERS.map((o) => `src/${o}`).join(' and ')} (ask the language profile, src/adapters/languages.ts, or the server's entry):`,
  );
  for (const f of found) console.error(`  ${f}`);
  process.exit(1);
}
console.log(`lint:languages: no language, server, manifest or extension literal outside ${OWNERS.map((o) => `src/${o}`).join(' and ')}`);
