package components

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPackageDocNamesWhatItServes keeps the package doc in step with the
// code: it names every field component and every state's function and
// data attribute.
func TestPackageDocNamesWhatItServes(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var doc string
	var want []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc != nil {
			doc += f.Doc.Text()
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() || fn.Type.Results == nil {
				continue
			}
			// Field components, the states' and the logic route's: func(…) templ.Component.
			if sel, ok := fn.Type.Results.List[0].Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Component" {
				want = append(want, "["+fn.Name.Name+"]")
			}
		}
	}
	if doc == "" {
		t.Fatal("the package has no doc comment")
	}
	states, err := os.ReadFile("hubform.templ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, regexp.MustCompile(`data-vendor-hubform-[a-z]+`).FindAllString(string(states), -1)...)
	for _, w := range want {
		if !strings.Contains(doc, w) {
			t.Errorf("the package doc does not name %s", w)
		}
	}
}
