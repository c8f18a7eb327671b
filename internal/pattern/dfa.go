package pattern

import (
	"encoding/binary"
	"math/bits"
	"regexp/syntax"
	"slices"
	"unicode"
)

// maxStates is the most states (besides dead, accept and fallback) an
// automaton may have; beyond it the expression declines.
const maxStates = 2000

// maxTable is the most entries of a transition table.
const maxTable = 1 << 17

// maxWork bounds the instructions the construction visits, so that a
// large program with many states declines instead of taking long.
const maxWork = 1 << 22

// The special states, as row numbers; a state's value in the table is its
// row number times the stride (shifted left by shift).
const (
	stateDead     = 0 // no thread left: false
	stateAccept   = 1 // a match was found: true
	stateFallback = 2 // a byte ≥ 0x80 that a rune instruction may match: ask regexp
	firstState    = 3
)

// dfa is a deterministic automaton over bytes. next[st+class[b]] is the
// state after byte b in state st, states being row offsets (row << shift)
// so that the loop does not multiply.
type dfa struct {
	class  [256]uint8
	shift  uint
	next   []uint32
	start  uint32
	first  uint32 // firstState << shift: states below are special
	endAcc []bool // per row: the state accepts at the end of the input
}

// match runs the automaton over s; fallback is true when regexp must
// answer.
func (d *dfa) match(s string) (matched, fallback bool) {
	st := d.start
	next := d.next
	for i := 0; i < len(s); i++ {
		st = next[st+uint32(d.class[s[i]])]
		if st < d.first {
			return st == stateAccept<<d.shift, st == stateFallback<<d.shift
		}
	}
	return d.endAcc[st>>d.shift], false
}

// builder holds what the subset construction needs.
type builder struct {
	prog     *syntax.Prog
	nonASCII bool       // some rune instruction may match a rune ≥ 0x80
	ncls     int        // byte classes, the last one for bytes ≥ 0x80
	rep      [129]rune  // a representative byte (as a rune) per ASCII class
	mark     []uint32   // closure visit marks, by pc
	gen      uint32     // the current mark
	stack    []uint32   // closure work list
	restart  []uint32   // the closure of the start, begin of text false
	states   [][]uint32 // per row from firstState: its waiting instructions
	index    map[string]uint32
	keyBuf   []byte
	work     int // instructions visited so far
}

// compileDFA builds the automaton of expr, which regexp.Compile accepted;
// nil when the expression declines.
func compileDFA(expr string) *dfa {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil
	}
	return newDFA(prog)
}

func newDFA(prog *syntax.Prog) *dfa {
	b := &builder{prog: prog, mark: make([]uint32, len(prog.Inst)), index: map[string]uint32{}}
	if !b.check() {
		return nil
	}
	var cls [256]uint8
	b.classes(&cls)
	shift := uint(bits.Len(uint(b.ncls - 1)))
	stride := 1 << shift
	d := &dfa{class: cls, shift: shift, first: firstState << shift}

	// The start's closure without begin of text is in every state after
	// the first byte; it cannot reach Match without the start's closure
	// reaching it too.
	b.restart, _ = b.closure(nil, []uint32{uint32(prog.Start)}, false, false)
	startSet, startMatch := b.closure(nil, []uint32{uint32(prog.Start)}, true, false)
	// rows: the special ones, then the states in the order found.
	next := make([]uint32, firstState*stride, 8*stride)
	for c := 0; c < stride; c++ {
		next[stateDead*stride+c] = stateDead << shift
		next[stateAccept*stride+c] = stateAccept << shift
		next[stateFallback*stride+c] = stateFallback << shift
	}
	endAcc := []bool{false, true, false}
	switch {
	case startMatch:
		d.start = stateAccept << shift
	case len(startSet) == 0:
		d.start = stateDead << shift
	default:
		// The start state is not interned: begin of text holds in it
		// only, so a later state with the same set differs at the end.
		b.states = append(b.states, startSet)
		d.start = firstState << shift
	}
	var set, seeds []uint32
	for row := 0; row < len(b.states); row++ {
		st := b.states[row]
		var atEnd bool // at the end every end-of-text assertion holds
		set, atEnd = b.closure(set[:0], st, row == 0 && d.start == firstState<<shift, true)
		endAcc = append(endAcc, atEnd)
		for c := 0; c < stride; c++ {
			if len(next) >= maxTable {
				return nil
			}
			if c >= b.ncls {
				next = append(next, stateDead<<shift)
				continue
			}
			if c == b.ncls-1 && b.nonASCII {
				next = append(next, stateFallback<<shift)
				continue
			}
			seeds = seeds[:0]
			if c < b.ncls-1 {
				r := b.rep[c]
				for _, pc := range st {
					if in := &prog.Inst[pc]; matchRune(in, r) {
						seeds = append(seeds, in.Out)
					}
				}
			}
			var m bool
			set, m = b.closure(set[:0], seeds, false, false)
			if m {
				next = append(next, stateAccept<<shift)
				continue
			}
			set = b.union(set, b.restart)
			if len(set) == 0 {
				next = append(next, stateDead<<shift)
				continue
			}
			id, ok := b.intern(set)
			if !ok || b.work > maxWork {
				return nil
			}
			next = append(next, id<<shift)
		}
	}
	d.next = next
	d.endAcc = endAcc
	return d
}

// check reports whether the program's assertions are all begin or end of
// text, and sets nonASCII.
func (b *builder) check() bool {
	for i := range b.prog.Inst {
		in := &b.prog.Inst[i]
		switch in.Op {
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(in.Arg)&^(syntax.EmptyBeginText|syntax.EmptyEndText) != 0 {
				return false
			}
		case syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			b.nonASCII = true
		case syntax.InstRune, syntax.InstRune1:
			if mayMatchNonASCII(in) {
				b.nonASCII = true
			}
		case syntax.InstAlt, syntax.InstAltMatch, syntax.InstCapture, syntax.InstNop,
			syntax.InstMatch, syntax.InstFail:
		default:
			return false
		}
	}
	return true
}

// mayMatchNonASCII reports whether a rune instruction may match a rune
// ≥ 0x80 (true when unsure, which is always safe).
func mayMatchNonASCII(in *syntax.Inst) bool {
	r := in.Rune
	if len(r) == 1 {
		if r[0] >= 0x80 {
			return true
		}
		if syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
			for f := unicode.SimpleFold(r[0]); f != r[0]; f = unicode.SimpleFold(f) {
				if f >= 0x80 {
					return true
				}
			}
		}
		return false
	}
	if len(r)%2 != 0 {
		return true
	}
	for i := 1; i < len(r); i += 2 {
		if r[i] >= 0x80 {
			return true
		}
	}
	return false
}

// matchRune reports whether a rune instruction matches r, as regexp's
// machines decide it.
func matchRune(in *syntax.Inst, r rune) bool {
	switch in.Op {
	case syntax.InstRune, syntax.InstRune1:
		return in.MatchRune(r)
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return r != '\n'
	}
	return false
}

// classes splits the ASCII bytes into classes that every rune
// instruction treats alike, and gives bytes ≥ 0x80 a class of their own,
// the last.
func (b *builder) classes(cls *[256]uint8) {
	type mask [2]uint64
	seen := map[mask]bool{}
	var ids [128]int
	n := 1
	for i := range b.prog.Inst {
		in := &b.prog.Inst[i]
		switch in.Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
		default:
			continue
		}
		var m mask
		for c := rune(0); c < 0x80; c++ {
			if matchRune(in, c) {
				m[c>>6] |= 1 << (c & 63)
			}
		}
		if seen[m] {
			continue
		}
		seen[m] = true
		// split every class by membership in m
		split := map[[2]int]int{}
		n = 0
		for c := 0; c < 0x80; c++ {
			k := [2]int{ids[c], int(m[c>>6] >> (c & 63) & 1)}
			id, ok := split[k]
			if !ok {
				id = n
				split[k] = id
				n++
			}
			ids[c] = id
		}
	}
	for c := 0; c < 0x80; c++ {
		cls[c] = uint8(ids[c])
	}
	for r := rune(0x7f); r >= 0; r-- {
		b.rep[ids[r]] = r
	}
	for c := 0x80; c < 0x100; c++ {
		cls[c] = uint8(n)
	}
	b.ncls = n + 1
}

// closure adds to set (sorted) the instructions that threads at seeds
// wait on: rune instructions and, unless end, end-of-text assertions;
// begin and end say whether begin and end of text hold. It reports
// whether Match is reached.
func (b *builder) closure(set []uint32, seeds []uint32, begin, end bool) ([]uint32, bool) {
	b.newMark()
	matched := false
	stack := append(b.stack[:0], seeds...)
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b.mark[pc] == b.gen {
			continue
		}
		b.mark[pc] = b.gen
		b.work++
		in := &b.prog.Inst[pc]
		switch in.Op {
		case syntax.InstMatch:
			matched = true
		case syntax.InstFail:
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, in.Arg, in.Out)
		case syntax.InstNop, syntax.InstCapture:
			stack = append(stack, in.Out)
		case syntax.InstEmptyWidth:
			op := syntax.EmptyOp(in.Arg)
			if op&syntax.EmptyBeginText != 0 && !begin {
				continue
			}
			if op&syntax.EmptyEndText != 0 && !end {
				set = append(set, pc) // waits for the end
				continue
			}
			stack = append(stack, in.Out)
		default: // rune instructions
			set = append(set, pc)
		}
	}
	b.stack = stack
	slices.Sort(set)
	return set, matched
}

// newMark starts a closure walk: marks of earlier walks no longer count.
func (b *builder) newMark() {
	b.gen++
	if b.gen == 0 { // wrapped: clear the old marks
		clear(b.mark)
		b.gen = 1
	}
}

// union merges the sorted sets a and r into a.
func (b *builder) union(a, r []uint32) []uint32 {
	if len(r) == 0 {
		return a
	}
	n := len(a)
	b.work += n + len(r)
	a = append(a, r...)
	if n > 0 {
		slices.Sort(a)
		a = slices.Compact(a)
	}
	return a
}

// intern returns the row of the state with the waiting set, adding it if
// new; false when there would be too many states.
func (b *builder) intern(set []uint32) (uint32, bool) {
	key := b.keyBuf[:0]
	for _, pc := range set {
		key = binary.LittleEndian.AppendUint32(key, pc)
	}
	b.keyBuf = key
	if id, ok := b.index[string(key)]; ok {
		return id, true
	}
	if len(b.states) >= maxStates {
		return 0, false
	}
	id := uint32(firstState + len(b.states))
	b.index[string(key)] = id
	b.states = append(b.states, slices.Clone(set))
	return id, true
}
