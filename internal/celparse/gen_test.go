package celparse

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// exprGen writes random expressions from the grammar, with random
// spacing and comments, to reach the corners no corpus holds.
type exprGen struct {
	r *rand.Rand
	b strings.Builder
}

func (g *exprGen) pick(s ...string) string { return s[g.r.IntN(len(s))] }

func (g *exprGen) sp() {
	switch g.r.IntN(12) {
	case 0:
		g.b.WriteString(" ")
	case 1:
		g.b.WriteString("\n\t")
	case 2:
		g.b.WriteString(" // é c\n")
	case 3:
		g.b.WriteString("\r\n ")
	}
}

func (g *exprGen) w(s string) { g.sp(); g.b.WriteString(s) }

func (g *exprGen) expr(depth int) {
	if depth <= 0 {
		g.primary(0)
		return
	}
	switch g.r.IntN(14) {
	case 0:
		g.or(depth - 1)
		g.w("?")
		g.or(depth - 1)
		g.w(":")
		g.expr(depth - 1)
	default:
		g.or(depth - 1)
	}
}

func (g *exprGen) or(depth int) {
	n := 1
	if g.r.IntN(3) == 0 {
		n += g.r.IntN(6)
	}
	for i := range n {
		if i > 0 {
			g.w(g.pick("||", "&&"))
		}
		g.rel(depth)
	}
}

func (g *exprGen) rel(depth int) {
	n := 1
	if g.r.IntN(3) == 0 {
		n += g.r.IntN(3)
	}
	for i := range n {
		if i > 0 {
			g.w(g.pick("<", "<=", ">=", ">", "==", "!=", "in", "+", "-", "*", "/", "%"))
		}
		g.unary(depth)
	}
}

func (g *exprGen) unary(depth int) {
	switch g.r.IntN(8) {
	case 0:
		g.w(strings.Repeat("!", 1+g.r.IntN(3)))
	case 1:
		g.w(strings.Repeat("-", 1+g.r.IntN(3)))
	}
	g.member(depth)
}

func (g *exprGen) member(depth int) {
	g.primary(depth)
	for g.r.IntN(3) == 0 && depth > 0 {
		switch g.r.IntN(7) {
		case 0:
			g.w(".")
			g.w(g.pick("a", "b", "if", "size"))
		case 1:
			g.w(".?")
			g.w(g.pick("a", "b"))
		case 2:
			g.w("." + g.pick("size", "contains", "f"))
			g.w("(")
			g.args(depth-1, g.r.IntN(3))
			g.w(")")
		case 3:
			g.w(g.pick("[", "[?"))
			g.expr(depth - 1)
			g.w("]")
		case 4:
			g.w("." + g.pick("all", "exists", "exists_one", "map", "filter", "existsOne", "transformList", "transformMap", "sortBy", "optMap", "optFlatMap"))
			g.w("(")
			g.w(g.pick("x", "y", "k"))
			if g.r.IntN(3) == 0 {
				g.w(",")
				g.w(g.pick("v", "y"))
			}
			g.w(",")
			g.expr(depth - 1)
			if g.r.IntN(4) == 0 {
				g.w(",")
				g.expr(depth - 1)
			}
			g.w(")")
		default:
			g.w(".")
			g.w(g.pick("a", "b"))
		}
	}
}

func (g *exprGen) args(depth, n int) {
	for i := range n {
		if i > 0 {
			g.w(",")
		}
		g.expr(depth)
	}
}

func (g *exprGen) primary(depth int) {
	k := g.r.IntN(16)
	if depth <= 0 {
		k = 10 + g.r.IntN(6)
	}
	switch k {
	case 0:
		g.w("(")
		g.expr(depth - 1)
		g.w(")")
	case 1:
		g.w("[")
		n := g.r.IntN(4)
		for i := range n {
			if i > 0 {
				g.w(",")
			}
			if g.r.IntN(4) == 0 {
				g.w("?")
			}
			g.expr(depth - 1)
		}
		if n > 0 && g.r.IntN(3) == 0 {
			g.w(",")
		}
		g.w("]")
	case 2:
		g.w("{")
		n := g.r.IntN(3)
		for i := range n {
			if i > 0 {
				g.w(",")
			}
			if g.r.IntN(4) == 0 {
				g.w("?")
			}
			g.expr(depth - 1)
			g.w(":")
			g.expr(depth - 1)
		}
		if n > 0 && g.r.IntN(3) == 0 {
			g.w(",")
		}
		g.w("}")
	case 3:
		g.w(g.pick("A", ".A", "a.B", "google.protobuf.Int64Value"))
		g.w("{")
		n := g.r.IntN(3)
		for i := range n {
			if i > 0 {
				g.w(",")
			}
			if g.r.IntN(4) == 0 {
				g.w("?")
			}
			g.w(g.pick("f", "g", "value", "if"))
			g.w(":")
			g.expr(depth - 1)
		}
		if n > 0 && g.r.IntN(3) == 0 {
			g.w(",")
		}
		g.w("}")
	case 4:
		g.w(g.pick("has", "f", ".f", "size", "int", "cel.bind"))
		g.w("(")
		g.args(depth-1, g.r.IntN(4))
		g.w(")")
	case 5:
		g.w("has(")
		g.w(g.pick("a", "self"))
		g.w(".")
		g.w(g.pick("b", "c"))
		g.w(")")
	default:
		g.w(g.pick("a", "b", "self", "oldSelf", ".a", "x", "y", "1", "0", "0x1F", "42u", "0x2aU", "1.5", ".5", "1e3", "2.5E-2",
			"9223372036854775807", "-1", "-0x10", "-2.5", "true", "false", "null",
			`"s"`, `'s'`, `"é\n\x41\101\u00e9"`, `'''t'r'''`, `"""a"b"""`, `r"\d"`, `b"\xff\001"`, `B'b'`, `bR"\x"`, `""`, `''`))
	}
}

// TestRandomExpressions compares the parser with cel-go's on random
// expressions of the grammar (a fixed seed, so that a failure repeats).
func TestRandomExpressions(t *testing.T) {
	g := &exprGen{r: rand.New(rand.NewPCG(1, 2))}
	envs := parserEnvs()
	n := 3000
	if testing.Short() {
		n = 300
	}
	parsed := 0
	for i := range n {
		g.b.Reset()
		g.expr(1 + i%6)
		text := g.b.String()
		for _, te := range envs {
			if fast, _ := checkSame(t, te, text); fast {
				parsed++
			}
		}
	}
	t.Logf("%d of %d parses by the parser (%d texts, 3 environments)", parsed, 3*n, n)
	if parsed < n {
		t.Errorf("the parser parsed only %d of %d: the generator makes too few valid texts to test anything", parsed, 3*n)
	}
}
