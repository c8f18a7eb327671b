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
	var line strings.Builder
	// writeLine writes the n cells of a line (text(i) is the i-th; cells
	// beyond the columns are ignored) in the columns shown.
	writeLine := func(n int, text func(i int) string) error {
		line.Reset()
		first := true
		for i := range min(n, len(t.Columns)) {
			if !wide && t.Columns[i].Priority != 0 {
				continue
			}
			if !first {
				line.WriteByte('\t')
			}
			first = false
			line.WriteString(text(i))
		}
		line.WriteByte('\n')
		_, err := io.WriteString(tw, line.String())
		return err
	}
	if err := writeLine(len(t.Columns), func(i int) string { return strings.ToUpper(t.Columns[i].Name) }); err != nil {
		return err
	}
	for _, r := range t.Rows {
		if err := writeLine(len(r.Cells), func(i int) string { return cellText(r.Cells[i]) }); err != nil {
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
