package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// rule is one declarative validation tag of a field (+k8s:minimum=0 and
// the like, in the k8s.io/api source of a release) that package builtin
// checks. Its format is read there.
type rule struct {
	Minimum   *int64   `json:"minimum,omitempty"`
	Maximum   *int64   `json:"maximum,omitempty"`
	MaxItems  *int     `json:"maxItems,omitempty"`
	MaxLength *int     `json:"maxLength,omitempty"`
	Format    string   `json:"format,omitempty"` // k8s-short-name, k8s-long-name, k8s-label-key
	Enum      []string `json:"enum,omitempty"`
	Immutable bool     `json:"immutable,omitempty"`
	// Each: the rule is for each item of the field's list or each value
	// of its map (+k8s:eachVal); Subfield: for that field of the field's
	// value (+k8s:subfield(name)).
	Each     bool   `json:"each,omitempty"`
	Subfield string `json:"subfield,omitempty"`
	// Pointer: the Go field is a pointer, so that its zero value is
	// checked too (a zero value of a non-pointer field is "unset").
	Pointer bool `json:"pointer,omitempty"`
}

// formats are the +k8s:format values package builtin checks.
var formats = map[string]bool{"k8s-short-name": true, "k8s-long-name": true, "k8s-label-key": true}

// tagRules reads the declarative validation tags of every package of the
// k8s.io/api module in dir: the rules of each definition's properties,
// by definition name (io.k8s.api.apps.v1.DeploymentSpec) and JSON field
// name. Only tags the release makes authoritative are kept: those without
// a stability level and those of +k8s:beta; +k8s:alpha ones (shadowed,
// their errors dropped), and those behind a feature gate or a union's
// mode, are left out, and so are tags no schema can express (unions,
// cross-field rules, list uniqueness).
func tagRules(dir string) (map[string]map[string][]rule, error) {
	out := map[string]map[string][]rule{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		return readPackage(p, "io.k8s.api."+strings.ReplaceAll(filepath.ToSlash(rel), "/", "."), out)
	})
	return out, err
}

// typeInfo is what the package says of one named type.
type typeInfo struct {
	rules    []rule // type-level tags (an enum, a format of a named string)
	isStruct bool
	embeds   []string       // the package's structs embedded inline
	gated    bool           // an enum with values behind tags: not checked
	under    string         // string, int32, ... for a named basic type
	pending  []pendingField // a struct's fields, resolved once the package is read
}

func readPackage(dir, prefix string, out map[string]map[string][]rule) error {
	fset := token.NewFileSet()
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	sort.Strings(names)
	types := map[string]*typeInfo{}
	info := func(n string) *typeInfo {
		if types[n] == nil {
			types[n] = &typeInfo{}
		}
		return types[n]
	}
	enumValues := map[string][]string{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					ti := info(s.Name.Name)
					doc := s.Doc
					if doc == nil {
						doc = gd.Doc
					}
					ti.rules = parseTags(commentLines(f, fset, doc))
					switch t := s.Type.(type) {
					case *ast.Ident:
						ti.under = t.Name
					case *ast.StructType:
						ti.isStruct = true
						readStruct(t, ti)
					}
				case *ast.ValueSpec:
					if gd.Tok != token.CONST || s.Type == nil || len(s.Values) != len(s.Names) {
						continue
					}
					id, ok := s.Type.(*ast.Ident)
					if !ok {
						continue
					}
					gated := false
					for _, l := range commentLines(f, fset, s.Doc) {
						if strings.HasPrefix(l, "+k8s:") {
							gated = true
						}
					}
					if gated {
						info(id.Name).gated = true
					}
					for _, v := range s.Values {
						if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
							if str, err := strconv.Unquote(lit.Value); err == nil {
								enumValues[id.Name] = append(enumValues[id.Name], str)
							}
						}
					}
				}
			}
		}
	}
	// Type-level enumerations get their values.
	for n, ti := range types {
		for i := range ti.rules {
			if ti.rules[i].Enum != nil {
				if ti.gated || len(enumValues[n]) == 0 || ti.under != "string" {
					ti.rules = nil // not checked: values behind gates, or none found
					break
				}
				vals := append([]string(nil), enumValues[n]...)
				sort.Strings(vals)
				ti.rules[i].Enum = vals
			}
		}
	}
	var names2 []string
	for n := range types {
		names2 = append(names2, n)
	}
	sort.Strings(names2)
	for _, n := range names2 {
		ti := types[n]
		if !ti.isStruct {
			continue
		}
		fields := map[string][]rule{}
		collect(ti, types, fields, map[string]bool{n: true})
		if len(fields) > 0 {
			out[prefix+"."+n] = fields
		}
	}
	return nil
}

// fieldType is a struct field's Go type as the rules need it.
type fieldType struct {
	name    string // the package's named type, if any
	pointer bool
	slice   bool
}

func typeOf(e ast.Expr) fieldType {
	switch t := e.(type) {
	case *ast.Ident:
		return fieldType{name: t.Name}
	case *ast.StarExpr:
		ft := typeOf(t.X)
		ft.pointer = true
		return ft
	case *ast.ArrayType:
		if t.Len == nil {
			ft := typeOf(t.Elt)
			if ft.slice || ft.pointer {
				return fieldType{}
			}
			ft.slice = true
			return ft
		}
	}
	return fieldType{}
}

// pending are the fields whose type-level rules are resolved once the
// whole package is read.
type pendingField struct {
	json string
	ft   fieldType
	own  []rule
}

func readStruct(st *ast.StructType, ti *typeInfo) {
	for _, fld := range st.Fields.List {
		jsonName := ""
		if fld.Tag != nil {
			tag, _ := strconv.Unquote(fld.Tag.Value)
			jsonName, _, _ = strings.Cut(reflect.StructTag(tag).Get("json"), ",")
		}
		if len(fld.Names) == 0 {
			if id, ok := fld.Type.(*ast.Ident); ok && (jsonName == "" || jsonName == "-") {
				ti.embeds = append(ti.embeds, id.Name)
			}
			continue
		}
		if jsonName == "" || jsonName == "-" || !fld.Names[0].IsExported() {
			continue
		}
		ft := typeOf(fld.Type)
		var lines []string
		if fld.Doc != nil {
			for _, c := range fld.Doc.List {
				lines = append(lines, strings.TrimSpace(strings.TrimPrefix(c.Text, "//")))
			}
		}
		var own []rule
		for _, r := range parseTags(lines) {
			if r.Enum != nil {
				continue // an enumeration is a type's (its constants)
			}
			r.Pointer = ft.pointer
			own = append(own, r)
		}
		ti.pending = append(ti.pending, pendingField{jsonName, ft, own})
	}
}

// collect gathers the rules of a struct's fields, those of the structs
// it embeds inline included.
func collect(ti *typeInfo, types map[string]*typeInfo, out map[string][]rule, open map[string]bool) {
	for _, p := range ti.pending {
		rs := append([]rule(nil), p.own...)
		if named := types[p.ft.name]; named != nil && !named.isStruct {
			for _, r := range named.rules {
				if p.ft.slice {
					if r.Each || r.Subfield != "" {
						continue
					}
					r.Each = true
				} else {
					r.Pointer = p.ft.pointer
				}
				rs = append(rs, r)
			}
		}
		if len(rs) > 0 {
			out[p.json] = append(out[p.json], rs...)
		}
	}
	for _, e := range ti.embeds {
		if et := types[e]; et != nil && !open[e] {
			open[e] = true
			collect(et, types, out, open)
		}
	}
}

// commentLines are the lines of a declaration's comment and of the
// comment block just above it, separated by one empty line (where the
// Kubernetes types put their tags), without the comment markers.
func commentLines(f *ast.File, fset *token.FileSet, doc *ast.CommentGroup) []string {
	if doc == nil {
		return nil
	}
	var groups []*ast.CommentGroup
	start := fset.Position(doc.Pos()).Line
	for _, g := range f.Comments {
		if g == doc {
			groups = append(groups, g)
			continue
		}
		if end := fset.Position(g.End()).Line; end == start-2 {
			groups = append(groups, g)
		}
	}
	var lines []string
	for _, g := range groups {
		for _, c := range g.List {
			lines = append(lines, strings.TrimSpace(strings.TrimPrefix(c.Text, "//")))
		}
	}
	return lines
}

// parseTags reads the rules of comment lines.
func parseTags(lines []string) []rule {
	var out []rule
	for _, l := range lines {
		if r, ok := parseTag(l); ok {
			out = append(out, r)
		}
	}
	return out
}

func parseTag(l string) (rule, bool) {
	var r rule
	s, ok := strings.CutPrefix(l, "+k8s:")
	if !ok {
		return r, false
	}
	if strings.HasPrefix(s, "beta(") {
		i := strings.Index(s, ")=+k8s:")
		if i < 0 {
			return r, false
		}
		s = s[i+len(")=+k8s:"):]
	}
	for {
		switch {
		case strings.HasPrefix(s, "eachVal=+k8s:"):
			if r.Each || r.Subfield != "" {
				return r, false
			}
			r.Each, s = true, strings.TrimPrefix(s, "eachVal=+k8s:")
			continue
		case strings.HasPrefix(s, "subfield("):
			i := strings.Index(s, ")=+k8s:")
			if i < 0 || r.Each || r.Subfield != "" {
				return r, false
			}
			r.Subfield = strings.Trim(s[len("subfield("):i], `"`)
			s = s[i+len(")=+k8s:"):]
			continue
		}
		break
	}
	name, value, _ := strings.Cut(s, "=")
	value = strings.Trim(strings.TrimSpace(value), `"`)
	switch name {
	case "minimum", "maximum":
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return r, false
		}
		if name == "minimum" {
			r.Minimum = &n
		} else {
			r.Maximum = &n
		}
	case "maxItems", "maxLength":
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			return r, false
		}
		if name == "maxItems" {
			r.MaxItems = &n
		} else {
			r.MaxLength = &n
		}
	case "format":
		if !formats[value] {
			return r, false
		}
		r.Format = value
	case "enum":
		r.Enum = []string{} // the values are the type's constants
	case "immutable":
		if r.Each || r.Subfield != "" {
			return r, false
		}
		r.Immutable = true
	default:
		return r, false // alpha, gated, unions, required and optional, ...
	}
	return r, true
}
