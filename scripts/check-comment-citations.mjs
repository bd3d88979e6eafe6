#!/usr/bin/env node
// `npm run lint:citations`: comments say the reason itself. A pointer to an issue number or to a
// design or notes file that lives outside this repository is dead to anyone reading the code here,
// so none is allowed in src/, bench/, test/ or scripts/ (test data that merely names such a file,
// like a fixture's notes file, is written as a string and is not matched: only comment text is).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOTS = ['src', 'bench', 'test', 'scripts'];
const EXT = /\.(ts|mts|cts|js|mjs|cjs)$/;
const CITATION = /\b(?:issue\s+#?\d+|issues?\s+#\d+)|\b(?:DESIGN|NOTES|STYLE)\.md\b/i;
const COMMENT = /(?:^|\s)(?:\/\/|\/\*+|\*)\s?(.*)$/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (EXT.test(name)) yield p;
  }
}

const found = [];
for (const root of ROOTS) {
  for (const file of files(root)) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const comment = COMMENT.exec(line);
        if (comment && CITATION.test(comment[1])) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
}
if (found.length > 0) {
  console.error('lint:citations: say the reason itself instead of citing an issue or a file outside the repository:');
  for (const f of found) console.error(`  ${f}`);
  process.exit(1);
}
console.log('lint:citations: no comment cites an issue number or a file outside the repository');
