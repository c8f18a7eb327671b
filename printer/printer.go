package printer

import (
	"fmt"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/printer/jsonpath"
)

// The descriptions the API server gives its built-in columns: the
// documentation of ObjectMeta's name and creationTimestamp fields.
const (
	nameDescription = "Name must be unique within a namespace. Is required when creating resources, " +
		"although some resources may allow a client to request the generation of an appropriate name " +
		"automatically. Name is primarily intended for creation idempotence and configuration definition. " +
		"Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"
	creationTimestampDescription = "CreationTimestamp is a timestamp representing the server time when this " +
		"object was created. It is not guaranteed to be set in happens-before order across separate operations. " +
		"Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\n" +
		"Populated by the system. Read-only. Null for lists. " +
		"More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
)

// A Column describes one column of a table, as metav1.TableColumnDefinition
// does.
type Column struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format"`
	Description string `json:"description"`
	Priority    int32  `json:"priority"`
}

// A Printer renders objects of one CRD version as table rows. It is built
// once from the version's additionalPrinterColumns, is immutable, and is
// safe for concurrent use.
type Printer struct {
	columns []Column             // the implicit Name column first
	paths   []*jsonpath.Template // one per column after Name
	now     func() time.Time
}

// An Option configures a Printer.
type Option func(*Printer)

// WithClock sets the clock against which date columns are rendered as ages.
// The default is time.Now.
func WithClock(now func() time.Time) Option {
	return func(p *Printer) {
		if now != nil {
			p.now = now
		}
	}
}

// New compiles printer columns. The table starts with the implicit Name
// column; without columns it has the default Age column (the object's
// creationTimestamp), as the API server serves it.
//
// A column whose JSONPath does not parse stops the compilation: New then
// returns the printer built from the columns before it, which the API
// server keeps using, along with the error
// `unrecognized column definition "<jsonPath>"`.
func New(cols []crdschema.CustomResourceColumnDefinition, opts ...Option) (*Printer, error) {
	if len(cols) == 0 {
		cols = []crdschema.CustomResourceColumnDefinition{ageColumn}
	}
	return build(cols, opts)
}

// ageColumn is the API server's Age column: the object's creationTimestamp.
var ageColumn = crdschema.CustomResourceColumnDefinition{
	Name: "Age", Type: "date", Description: creationTimestampDescription, JSONPath: ".metadata.creationTimestamp",
}

// NewScale returns the printer the API server uses for the /scale
// subresource of a CRD version: Desired (.spec.replicas) when the scale
// subresource has a specReplicasPath, Available (.status.replicas) when it
// has a statusReplicasPath, then Age. scale may be nil.
func NewScale(scale *crdschema.CustomResourceSubresourceScale, opts ...Option) *Printer {
	var cols []crdschema.CustomResourceColumnDefinition
	if scale != nil && scale.SpecReplicasPath != "" {
		cols = append(cols, crdschema.CustomResourceColumnDefinition{
			Name: "Desired", Type: "integer", Description: "Number of desired replicas", JSONPath: ".spec.replicas",
		})
	}
	if scale != nil && scale.StatusReplicasPath != "" {
		cols = append(cols, crdschema.CustomResourceColumnDefinition{
			Name: "Available", Type: "integer", Description: "Number of actual replicas", JSONPath: ".status.replicas",
		})
	}
	cols = append(cols, ageColumn)
	p, _ := build(cols, opts) // the paths above always parse
	return p
}

func build(cols []crdschema.CustomResourceColumnDefinition, opts []Option) (*Printer, error) {
	p := &Printer{
		columns: make([]Column, 1, 1+len(cols)),
		paths:   make([]*jsonpath.Template, 0, len(cols)),
		now:     time.Now,
	}
	p.columns[0] = Column{Name: "Name", Type: "string", Format: "name", Description: nameDescription}
	for _, o := range opts {
		o(p)
	}
	for _, c := range cols {
		t, err := jsonpath.Parse(c.Name, "{"+c.JSONPath+"}")
		if err != nil {
			return p, fmt.Errorf("unrecognized column definition %q", c.JSONPath)
		}
		desc := c.Description
		if desc == "" {
			desc = "Custom resource definition column (in JSONPath format): " + c.JSONPath
		}
		p.paths = append(p.paths, t.AllowMissingKeys(true))
		p.columns = append(p.columns, Column{
			Name:        c.Name,
			Type:        c.Type,
			Format:      c.Format,
			Description: desc,
			Priority:    c.Priority,
		})
	}
	return p, nil
}

// Columns returns the column definitions, the implicit Name column first.
// The caller may modify the returned slice.
func (p *Printer) Columns() []Column {
	return append([]Column(nil), p.columns...)
}

// Row returns the cells of obj, one per column: the object's name, then
// each column's value as the API server puts it in a Table:
//
//   - a column whose path finds nothing (or fails) has a nil cell; only the
//     first value found is used;
//   - string columns print any value: maps and slices as JSON, scalars as
//     Go prints them, null as "<no value>";
//   - integer columns take integers and truncate floats (int64), number
//     columns take both (float64), boolean columns take booleans; any other
//     value gives nil;
//   - date columns take RFC 3339 strings and render them as an age relative
//     to the printer's clock (humanDuration), "<unknown>" for an empty or
//     zero time, "<invalid>" for a string that does not parse;
//   - columns of any other type have nil cells.
//
// obj is not modified.
func (p *Printer) Row(obj map[string]any) []any {
	cells := make([]any, 1, len(p.columns))
	cells[0] = objectName(obj)
	var buf []byte
	for i, path := range p.paths {
		col := &p.columns[i+1]
		v, found, err := path.First(obj)
		if err != nil || !found {
			cells = append(cells, nil)
			continue
		}
		if col.Type != "string" {
			cells = append(cells, p.cell(col.Type, v))
			continue
		}
		switch x := v.(type) {
		case string:
			cells = append(cells, x)
		case nil:
			cells = append(cells, "<no value>")
		default:
			if buf, err = jsonpath.AppendValue(buf[:0], x); err != nil {
				cells = append(cells, nil)
				continue
			}
			cells = append(cells, string(buf))
		}
	}
	return cells
}

// objectName returns metadata.name, or "" when it is not a string.
func objectName(obj map[string]any) string {
	meta, _ := obj["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	return name
}
