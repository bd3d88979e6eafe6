/**
 * Embedding truth of a Go module from go/types: a small Go program (written into the work dir and
 * run with the machine's go toolchain) type-checks every package of the module with the source
 * importer and prints, for every named struct and interface type declared at package level, each
 * embedded field (struct) or embedded type (interface) whose type is a named type: its declaration
 * `file:line` when inside the module, else `ext:<Name>` (the universe's `error` included).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import type { RelationTruth } from './truth-structure-common.js';

const PROGRAM = `package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type out struct {
	Types map[string]string \`json:"types"\`
	Edges [][2]string        \`json:"edges"\`
}

func main() {
	root, module := os.Args[1], os.Args[2]
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	res := out{Types: map[string]string{}}
	key := func(obj types.Object) string {
		p := fset.Position(obj.Pos())
		if obj.Pkg() == nil || !p.IsValid() || !strings.HasPrefix(p.Filename, root+string(filepath.Separator)) {
			return "ext:" + obj.Name()
		}
		rel, _ := filepath.Rel(root, p.Filename)
		return fmt.Sprintf("%s:%d", filepath.ToSlash(rel), p.Line)
	}
	var dirs []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	sort.Strings(dirs)
	for _, dir := range dirs {
		pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
		if err != nil {
			panic(err)
		}
		for _, pkg := range pkgs {
			var files []*ast.File
			for _, f := range pkg.Files {
				files = append(files, f)
			}
			rel, _ := filepath.Rel(root, dir)
			conf := types.Config{Importer: imp, Error: func(error) {}}
			tpkg, _ := conf.Check(module+"/"+filepath.ToSlash(rel), fset, files, nil)
			scope := tpkg.Scope()
			for _, name := range scope.Names() {
				tn, ok := scope.Lookup(name).(*types.TypeName)
				if !ok || tn.IsAlias() {
					continue
				}
				sub := key(tn)
				res.Types[sub] = name
				switch u := tn.Type().Underlying().(type) {
				case *types.Struct:
					for i := 0; i < u.NumFields(); i++ {
						if f := u.Field(i); f.Embedded() {
							if n := named(f.Type()); n != nil {
								res.Edges = append(res.Edges, [2]string{sub, key(n.Obj())})
							}
						}
					}
				case *types.Interface:
					for i := 0; i < u.NumEmbeddeds(); i++ {
						if n := named(u.EmbeddedType(i)); n != nil {
							res.Edges = append(res.Edges, [2]string{sub, key(n.Obj())})
						}
					}
				}
			}
		}
	}
	json.NewEncoder(os.Stdout).Encode(res)
}

func named(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := t.(*types.Named)
	return n
}
`;

export function goTruth(root: string, module: string, workDir: string, goBin: string): RelationTruth {
  const prog = path.join(workDir, 'embedding-truth');
  fs.mkdirSync(prog, { recursive: true });
  fs.writeFileSync(path.join(prog, 'go.mod'), 'module embeddingtruth\n\ngo 1.23\n');
  fs.writeFileSync(path.join(prog, 'main.go'), PROGRAM);
  const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', PATH: `${path.dirname(goBin)}:${process.env.PATH ?? ''}` };
  // built, then run in the module: the source importer finds the module's packages with the go command run there
  const bin = path.join(prog, 'embedding-truth');
  execFileSync(goBin, ['build', '-o', bin, '.'], { cwd: prog, env });
  const json = execFileSync(bin, [root, module], { cwd: root, env, maxBuffer: 64 << 20 }).toString();
  const parsed = JSON.parse(json) as { types: Record<string, string>; edges: [string, string][] | null };
  return { types: new Map(Object.entries(parsed.types)), edges: (parsed.edges ?? []).map(([sub, base]) => ({ sub, base })) };
}
