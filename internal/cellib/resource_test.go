package cellib

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// describeQuantity renders what testdata/quantity.tsv records for one input.
func describeQuantity(s string) string {
	q, err := parseQuantity(s)
	if err != nil {
		return fmt.Sprintf("%q\tERR\t%s", s, err)
	}
	i, ok := q.asInt64()
	one, _ := parseQuantity("1")
	x, _ := parseQuantity("1.5Ki")
	y, _ := parseQuantity("3m")
	a := q.plus(&x, false)
	b := q.plus(&y, true)
	return fmt.Sprintf("%q\t%s\t%d\t%v\t%d\t%v\t%d\t%s\t%s", s, q.String(), i, ok, q.sign(), q.approxFloat64(), q.cmp(&one), a.String(), b.String())
}

// TestQuantityRecorded compares parsing, canonical form, integer and float
// conversion, sign, comparison and arithmetic with resource.Quantity's
// recorded results for about 3000 inputs (Kubernetes' own test inputs and
// random strings over the quantity alphabet).
func TestQuantityRecorded(t *testing.T) {
	f, err := os.Open("testdata/quantity.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "# ") {
			continue
		}
		in, _, _ := strings.Cut(line, "\t")
		s, err := strconv.Unquote(in)
		if err != nil {
			t.Fatalf("bad input %s: %v", in, err)
		}
		n++
		if got := describeQuantity(s); got != line {
			t.Errorf("got  %s\nwant %s", got, line)
		}
	}
	if n < 3000 {
		t.Fatalf("only %d cases", n)
	}
}

func TestQuantityString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"},
		{"0n", "0"},
		{"0Ki", "0"},
		{"1Ki", "1Ki"},
		{"1024", "1024"},
		{"1024Ki", "1Mi"},
		{"1536Ki", "1536Ki"},
		{"0.5Mi", "512Ki"},
		{"100.035k", "100.035k"},
		{"50k", "50k"},
		{"50000", "50k"},
		{"1.5", "1500m"},
		{"1e3", "1e3"},
		{"1000e0", "1e3"},
		{"1.1E-9", "2e-9"},
		{"3.001n", "4n"},
		{"0.000000000001Ki", "2n"},
		{"9Ei", "9223372036854775807"},
		{"12E", "12E"},
		{"1000E", "1"}, // Kubernetes has no suffix for 10^21 and prints the bare mantissa
		{"+1", "+1"},
		{"1e4096", "10e4095"}, // already canonical text is kept as written
		{"-0.5", "-500m"},
	}
	for _, tt := range tests {
		q, err := parseQuantity(tt.in)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if got := q.String(); got != tt.want {
			t.Errorf("%q: String() = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestQuantityParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
		{"1.2.3", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
		{" 1", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
		{"10Mm", "unable to parse quantity's suffix"},
		{"1KiB", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
		{"1ki", "unable to parse quantity's suffix"},
		{"e-20", "unable to parse numeric part of quantity"},
		// Deliberate limit of this library (Kubernetes would compute with a
		// number of a billion digits).
		{"1e4097", "unable to parse numeric part of quantity"},
		{"1e1000000000", "unable to parse numeric part of quantity"},
	}
	for _, tt := range tests {
		_, err := parseQuantity(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: error %v, want %q", tt.in, err, tt.want)
		}
	}
}

// TestQuantityTinyExponent checks that a very negative exponent rounds up
// to one nano unit, as Kubernetes does (recorded for 1e-20000), without
// computing with huge numbers (Kubernetes hangs on 1e-2000000000).
func TestQuantityTinyExponent(t *testing.T) {
	for in, want := range map[string]string{"1e-20000": "1e-9", "-5e-20000": "-1e-9", "1e-2000000000": "1e-9", "-5e-2000000000": "-1e-9"} {
		q, err := parseQuantity(in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if got := q.String(); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
