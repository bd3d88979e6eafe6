// The Go oracle of `npm run truth` (bench/truth.ts): what go/build (through `go list`), go/parser
// and go/types say about a module's packages, as JSON on stdout: each file's imports and whether
// build constraints exclude it, each function's static callers and how often it is used outside
// its own body. Usage: go run . MODULE_DIR (run in MODULE_DIR's environment: GOFLAGS, GOPROXY=off).
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

type pkgInfo struct {
	Dir            string
	ImportPath     string
	GoFiles        []string
	IgnoredGoFiles []string
}

type fileOut struct {
	File     string   `json:"file"`
	Package  string   `json:"package"`
	Excluded bool     `json:"excluded"`
	Imports  []string `json:"imports"`
}

type funcOut struct {
	ID       string   `json:"id"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	EndLine  int      `json:"end_line"`
	Name     string   `json:"name"`
	Recv     string   `json:"recv"`
	Exported bool     `json:"exported"`
	Callers  []string `json:"callers"`
	Uses     int      `json:"uses"`
}

func main() {
	root, _ := filepath.Abs(os.Args[1])
	// the source importer finds the module's packages with the go command, from the working directory
	if err := os.Chdir(root); err != nil {
		panic(err)
	}
	goList := exec.Command("go", "list", "-json", "./...")
	goList.Dir = root
	out, err := goList.Output()
	if err != nil {
		panic(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var pkgs []pkgInfo
	for dec.More() {
		var p pkgInfo
		if err := dec.Decode(&p); err != nil {
			panic(err)
		}
		pkgs = append(pkgs, p)
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	rel := func(f string) string { r, _ := filepath.Rel(root, f); return filepath.ToSlash(r) }
	// A function is known by its declaration's position: the source importer type-checks an
	// imported package again, with other objects for the same declarations.
	key := func(o types.Object) string {
		p := fset.Position(o.Pos())
		return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
	}
	var files []fileOut
	funcs := map[string]*funcOut{}
	type use struct {
		callee string
		at     token.Position
		caller string
	}
	var uses []use
	for _, p := range pkgs {
		for _, f := range p.IgnoredGoFiles {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			fo := fileOut{File: rel(filepath.Join(p.Dir, f)), Package: p.ImportPath, Excluded: true, Imports: []string{}}
			if af, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, parser.ImportsOnly); err == nil {
				for _, i := range af.Imports {
					v, _ := strconv.Unquote(i.Path.Value)
					fo.Imports = append(fo.Imports, v)
				}
			}
			files = append(files, fo)
		}
		var asts []*ast.File
		for _, f := range p.GoFiles {
			af, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, parser.ParseComments)
			if err != nil {
				panic(err)
			}
			asts = append(asts, af)
			fo := fileOut{File: rel(filepath.Join(p.Dir, f)), Package: p.ImportPath, Imports: []string{}}
			for _, i := range af.Imports {
				v, _ := strconv.Unquote(i.Path.Value)
				fo.Imports = append(fo.Imports, v)
			}
			files = append(files, fo)
		}
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: imp, Error: func(error) {}}
		conf.Check(p.ImportPath, fset, asts, info)
		for _, af := range asts {
			for _, d := range af.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				obj, _ := info.Defs[fd.Name].(*types.Func)
				if obj == nil {
					continue
				}
				recv := receiverName(fd)
				start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
				q := fd.Name.Name
				if recv != "" {
					q = recv + "." + q
				}
				self := key(obj)
				funcs[self] = &funcOut{ID: rel(start.Filename) + "::" + q, File: rel(start.Filename), Line: start.Line, EndLine: end.Line, Name: fd.Name.Name, Recv: recv, Exported: fd.Name.IsExported(), Callers: []string{}}
				if fd.Body == nil {
					continue
				}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					id, ok := n.(*ast.Ident)
					if !ok {
						return true
					}
					if callee, ok := info.Uses[id].(*types.Func); ok {
						uses = append(uses, use{key(callee), fset.Position(id.Pos()), self})
					}
					return true
				})
			}
		}
		// uses outside any function body (package-level var initialisers)
		for id, o := range info.Uses {
			if f, ok := o.(*types.Func); ok && !insideFunc(asts, id.Pos()) {
				uses = append(uses, use{key(f), fset.Position(id.Pos()), ""})
			}
		}
	}
	for _, u := range uses {
		fo := funcs[u.callee]
		if fo == nil {
			continue
		}
		if !(rel(u.at.Filename) == fo.File && u.at.Line >= fo.Line && u.at.Line <= fo.EndLine) {
			fo.Uses++
		}
		if from := funcs[u.caller]; from != nil && from != fo {
			fo.Callers = append(fo.Callers, from.ID)
		}
	}
	var list []*funcOut
	for _, f := range funcs {
		sort.Strings(f.Callers)
		list = append(list, f)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	sort.Slice(files, func(i, j int) bool { return files[i].File < files[j].File })
	b, _ := json.Marshal(map[string]any{"files": files, "funcs": list})
	fmt.Println(string(b))
}

func receiverName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		}
		break
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func insideFunc(files []*ast.File, pos token.Pos) bool {
	for _, f := range files {
		if pos < f.Pos() || pos > f.End() {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && pos >= fd.Pos() && pos <= fd.End() {
				return true
			}
		}
	}
	return false
}
