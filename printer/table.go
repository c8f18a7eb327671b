package printer

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// A Table holds the rows of many objects under one set of columns, in the
// shape of a metav1.Table.
type Table struct {
	Columns []Column `json:"columnDefinitions"`
	Rows    []Row    `json:"rows"`
}

// A Row is the cells of one object, with the object itself.
type Row struct {
	Cells  []any          `json:"cells"`
	Object map[string]any `json:"object,omitempty"`
}

// Table renders objs, one row per object in order.
func (p *Printer) Table(objs []map[string]any) *Table {
	t := &Table{Columns: p.Columns(), Rows: make([]Row, len(objs))}
	for i, obj := range objs {
		t.Rows[i] = Row{Cells: p.Row(obj), Object: obj}
	}
	return t
}

// WriteText writes the table as plain text, as `kubectl get` prints it:
// upper-case column names, then one line per row, columns aligned with at
// least three spaces between them. Columns with a priority other than 0
// appear only when wide is true (`kubectl get -o wide`). A nil cell is
// left blank; a string cell is cut at its first line break (followed by
// "..."); escape characters are shown as "^[" and carriage returns as "\r".
func (t *Table) WriteText(w io.Writer, wide bool) error {
	tw := tabwriter.NewWriter(w, 6, 4, 3, ' ', 0)
	show := make([]bool, len(t.Columns))
	var line strings.Builder
	first := true
	for i, c := range t.Columns {
		show[i] = wide || c.Priority == 0
		if !show[i] {
			continue
		}
		if !first {
			line.WriteByte('\t')
		}
		first = false
		line.WriteString(strings.ToUpper(c.Name))
	}
	line.WriteByte('\n')
	if _, err := io.WriteString(tw, line.String()); err != nil {
		return err
	}
	for _, r := range t.Rows {
		line.Reset()
		first = true
		for i, cell := range r.Cells {
			if i >= len(show) {
				break // more cells than columns: ignore the extra ones
			}
			if !show[i] {
				continue
			}
			if !first {
				line.WriteByte('\t')
			}
			first = false
			line.WriteString(cellText(cell))
		}
		line.WriteByte('\n')
		if _, err := io.WriteString(tw, line.String()); err != nil {
			return err
		}
	}
	return tw.Flush()
}

var terminalEscaper = strings.NewReplacer("\x1b", "^[", "\r", `\r`)

// cellText is the text of one cell in WriteText.
func cellText(cell any) string {
	switch v := cell.(type) {
	case nil:
		return ""
	case string:
		if i := strings.IndexAny(v, "\f\n\r"); i >= 0 {
			return terminalEscaper.Replace(v[:i]) + "..."
		}
		return terminalEscaper.Replace(v)
	}
	return terminalEscaper.Replace(fmt.Sprint(cell))
}
