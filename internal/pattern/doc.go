// Package pattern matches the regular expressions of the OpenAPI pattern
// keyword: a Matcher answers exactly as (*regexp.Regexp).MatchString of
// the same expression, which is how the API server matches patterns, but
// for the usual Kubernetes patterns (ASCII classes, alternation,
// repetition, anchors) it runs a deterministic automaton over bytes: one
// table look-up per byte, no allocation.
//
// # Which expressions get an automaton
//
// The expression is parsed as regexp.Compile parses it (syntax.Perl,
// Simplify, syntax.Compile), and the automaton is built from that program
// by subset construction. It is built only when
//
//   - every empty-width assertion of the program is begin of text or end
//     of text (^, $, \A, \z under Perl flags); word boundaries and the
//     line anchors of (?m) decline;
//   - the automaton has at most maxStates states and maxTable transitions,
//     and its construction visits at most maxWork instructions (so that
//     it stays under tens of milliseconds whatever the expression).
//
// Otherwise the Matcher calls the *regexp.Regexp. Rune instructions that
// can match runes outside ASCII ('.', negated classes, \p{...}, case
// folding with a non-ASCII member such as k/K/U+212A) do not decline:
// their ASCII part is in the automaton and a byte ≥ 0x80 in the input
// hands the whole string to regexp (see below).
//
// Everything is lazy. Compile only parses the expression (which is where
// regexp.Compile fails, with the same error); the *regexp.Regexp is
// compiled on the first match; the first buildAfter matches use it, and
// the last of them builds the automaton (one goroutine builds it; the
// others keep using regexp until it is published). Patterns that are
// matched a few times only, as in CRD validation and serving set-up,
// never pay for the automaton.
//
// # Why the answers are the same
//
// Let P be the program, s the input. MatchString(s) is true if and only if
// for some rune boundary i of s (the positions regexp visits when it
// decodes s from 0: a valid UTF-8 sequence is one step of its width, an
// invalid byte one step of width 1 decoded as U+FFFD; 0 and len(s) are
// boundaries) a thread started at i reaches Match, where an instruction
// consuming a rune r moves to the next boundary, begin-of-text holds only
// at 0 and end-of-text only at len(s).
//
// A state of the automaton is the set of instructions threads can be
// waiting on after the bytes read so far: rune instructions, and end-of-text
// assertions waiting for the end (the ε-closure follows Nop, Capture,
// Alt and the assertions that hold; begin-of-text holds only in the start
// state, which is never merged with another state because of that).
// After every byte the closure of P's start (begin-of-text false) is added,
// which starts a thread at every byte position.
//
// ASCII inputs: every byte is a rune boundary and a rune, and the
// transition on byte b moves exactly the threads whose instruction
// matches rune b (Inst.MatchRune, or RuneAny/RuneAnyNotNL as regexp
// treats them), so the automaton simulates regexp's threads position by
// position; it is Thompson's simulation with the sets precomputed.
//
// Bytes ≥ 0x80: if some rune instruction of P can match a non-ASCII rune,
// the transition on any byte ≥ 0x80 goes to the fallback state and the
// Matcher returns regexp's answer for the whole string; before that byte,
// all bytes were ASCII, so what the automaton concluded (a match found,
// see early acceptance) holds in s as well. If no rune instruction can
// match a non-ASCII rune, no thread survives such a byte: regexp decodes
// a rune of width w ≥ 1 there (U+FFFD for an invalid byte), which no
// instruction matches; the automaton kills the threads on the first byte
// and restarts at each of the next w-1 bytes too, which are not rune
// boundaries. Threads started there can only reach Match through
// empty-width paths; a path that needs no end of text also exists from
// position 0 (begin-of-text holding there only adds paths) and was found
// there already, and a path that needs the end of text holds at len(s),
// which regexp visits as well. Threads started at a non-boundary die on
// their first consumed byte, which is a continuation byte ≥ 0x80. And an
// ASCII byte is always a rune boundary, as a valid multi-byte sequence
// holds no ASCII byte and an invalid byte is one step.
//
// Early acceptance: MatchString asks only whether a match exists, so once
// Match is in the closure (no end-of-text assertion on the way), the
// answer is true whatever follows: all such states are one absorbing
// accept state, and the loop stops there. The start state may be it (the
// pattern matches the empty string at 0, so every string, as with the
// empty pattern). A state without threads is dead (only anchored patterns
// reach it, as unanchored ones restart) and answers false. At the end of
// the input the answer is whether the closure of the waiting end-of-text
// assertions (with begin-of-text in the start state only, for the empty
// input) reaches Match.
package pattern
