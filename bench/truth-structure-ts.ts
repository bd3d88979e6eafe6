/**
 * Type-relation truth of a TypeScript corpus from the TypeScript compiler API: every class and
 * interface declaration of the program's files under the root, and for each heritage clause type
 * (`extends` / `implements`) whose expression names something (an identifier or a property access;
 * `extends mixin(Base)` names nothing) the checker's symbol, import aliases followed, kept where it
 * is declared as a class, an interface or a type alias (`interface A extends SomeAlias`) — the
 * program's own resolution, not lspgate's.
 */
import path from 'node:path';

import ts from 'typescript';

import { externalKey, type RelationTruth, typeKey } from './truth-structure-common.js';

function program(root: string): ts.Program {
  const configPath = path.join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (f) => ts.sys.readFile(f));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram(parsed.fileNames, parsed.options);
}

type TypeDecl = ts.ClassDeclaration | ts.InterfaceDeclaration;

function isTypeDecl(n: ts.Node): n is TypeDecl {
  return (ts.isClassDeclaration(n) || ts.isInterfaceDeclaration(n)) && !!n.name;
}

export function typescriptTruth(root: string): RelationTruth {
  const prog = program(root);
  const checker = prog.getTypeChecker();
  const types = new Map<string, string>();
  const edges: RelationTruth['edges'] = [];
  const keyOf = (d: TypeDecl | ts.TypeAliasDeclaration): string | undefined => {
    const sf = d.getSourceFile();
    const rel = path.relative(root, sf.fileName).split(path.sep).join('/');
    if (rel.startsWith('..')) return undefined;
    return typeKey(rel, sf.getLineAndCharacterOfPosition(d.name!.getStart(sf)).line + 1);
  };
  for (const sf of prog.getSourceFiles()) {
    if (path.relative(root, sf.fileName).startsWith('..') || sf.fileName.includes('/node_modules/')) continue;
    const visit = (n: ts.Node): void => {
      if (isTypeDecl(n)) {
        const sub = keyOf(n)!;
        types.set(sub, n.name!.text);
        for (const clause of n.heritageClauses ?? []) {
          for (const t of clause.types) {
            if (!ts.isIdentifier(t.expression) && !ts.isPropertyAccessExpression(t.expression)) continue;
            let sym = checker.getSymbolAtLocation(t.expression);
            if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
            for (const d of sym?.declarations ?? []) {
              if (!isTypeDecl(d) && !ts.isTypeAliasDeclaration(d)) continue;
              edges.push({ sub, base: keyOf(d) ?? externalKey(sym!.name) });
            }
          }
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return { types, edges };
}
