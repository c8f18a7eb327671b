package celrules

import (
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
)

func i64(v int64) *int64 { return &v }

func str(t string) *structural.Schema {
	return &structural.Schema{Generic: structural.Generic{Type: t}}
}

// calibrationSchema is the root schema of UPSTREAM.md's calibration
// figures, probed on the API server.
func calibrationSchema(rules ...string) *structural.Schema {
	var xv []crdschema.ValidationRule
	for _, r := range rules {
		xv = append(xv, crdschema.ValidationRule{Rule: r})
	}
	return &structural.Schema{
		Generic: structural.Generic{Type: "object"},
		Properties: map[string]*structural.Schema{
			"a":  str("integer"),
			"b":  str("integer"),
			"s":  str("string"),
			"ls": {Generic: structural.Generic{Type: "array"}, Items: str("string")},
			"lb": {Generic: structural.Generic{Type: "array"},
				Items:           &structural.Schema{Generic: structural.Generic{Type: "string"}, ValueValidation: &structural.ValueValidation{MaxLength: i64(20)}},
				ValueValidation: &structural.ValueValidation{MaxItems: i64(10)}},
			"m": {Generic: structural.Generic{Type: "object"}, AdditionalProperties: &structural.SchemaOrBool{Bool: true, Schema: str("integer")}},
		},
		XValidations: xv,
	}
}

func TestCalibrationCosts(t *testing.T) {
	tests := []struct {
		rule string
		cost uint64
	}{
		{"self.a < self.b", 5},
		{"self.s.startsWith('x')", 3},
		{"self.s == 'abc'", 3},
		{"self.metadata.name.size() < 10", 5},
		{"self.ls.all(x, x.size() < 5)", 6291453},
		{"self.lb.all(x, x.size() < 5)", 63},
		{"self.m.all(k, self.m[k] > 0)", 3595115},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			s := calibrationSchema(tt.rule)
			errs, costs, err := CheckSchema(s, crdschema.NewPath("openAPIV3Schema"))
			if err != nil {
				t.Fatal(err)
			}
			if len(costs) != 1 {
				t.Fatalf("costs %v, errors %v", costs, errs)
			}
			if costs[0].Cost != tt.cost {
				t.Errorf("cost = %d, want %d", costs[0].Cost, tt.cost)
			}
			if costs[0].Cardinality != 1 {
				t.Errorf("cardinality = %d, want 1", costs[0].Cardinality)
			}
			if costs[0].Field != "openAPIV3Schema.x-kubernetes-validations[0].rule" {
				t.Errorf("field = %q", costs[0].Field)
			}
		})
	}
}

func TestRootMaxCardinality(t *testing.T) {
	s := calibrationSchema("self.a < self.b")
	rules, err := compileRules(s, s.XValidations, newDeclType(s, true), &config{minor: defaultMinor, cache: new(Cache)})
	if err != nil {
		t.Fatal(err)
	}
	if got := rules[0].maxCardinality; got != 1048576 {
		t.Errorf("maxCardinality = %d, want 1048576", got)
	}
}

func TestCostErrorMessage(t *testing.T) {
	tests := []struct {
		cost uint64
		want string
	}{
		{12000000, "estimated rule cost exceeds budget by factor of 1.200000x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"},
		{181000000, "estimated rule cost exceeds budget by factor of 18.1x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"},
		{1000000001, "estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"},
	}
	for _, tt := range tests {
		if got := costErrorMessage("estimated rule cost", tt.cost, StaticCostLimit); got != tt.want {
			t.Errorf("%d: got %q, want %q", tt.cost, got, tt.want)
		}
	}
}

func TestDeclTypeSizes(t *testing.T) {
	enum := &structural.Schema{Generic: structural.Generic{Type: "string"},
		ValueValidation: &structural.ValueValidation{Enum: []crdschema.JSON{{Value: "a"}, {Value: "abcd"}}}}
	tests := []struct {
		name          string
		s             *structural.Schema
		max, min      int64
		typeName      string
		resourceRoot  bool
		wantFieldsLen int
	}{
		{"string", str("string"), 3145726, 2, "string", false, 0},
		{"maxLength", &structural.Schema{Generic: structural.Generic{Type: "string"}, ValueValidation: &structural.ValueValidation{MaxLength: i64(10)}}, 40, 2, "string", false, 0},
		{"enum", enum, 4, 2, "string", false, 0},
		{"byte", &structural.Schema{Generic: structural.Generic{Type: "string"}, ValueValidation: &structural.ValueValidation{Format: "byte"}}, 3145726, 2, "bytes", false, 0},
		{"duration", &structural.Schema{Generic: structural.Generic{Type: "string"}, ValueValidation: &structural.ValueValidation{Format: "duration"}}, 32, 3, "duration", false, 0},
		{"date", &structural.Schema{Generic: structural.Generic{Type: "string"}, ValueValidation: &structural.ValueValidation{Format: "date"}}, 12, 12, "timestamp", false, 0},
		{"date-time", &structural.Schema{Generic: structural.Generic{Type: "string"}, ValueValidation: &structural.ValueValidation{Format: "date-time"}}, 32, 21, "timestamp", false, 0},
		{"int-or-string", &structural.Schema{Extensions: structural.Extensions{XIntOrString: true}}, 3145726, 1, "dyn", false, 0},
		{"list of ints", &structural.Schema{Generic: structural.Generic{Type: "array"}, Items: str("integer")}, 1572863, 2, "list", false, 0},
		{"map of strings", &structural.Schema{Generic: structural.Generic{Type: "object"}, AdditionalProperties: &structural.SchemaOrBool{Bool: true, Schema: str("string")}}, 393215, 2, "map", false, 0},
		{"resource root", &structural.Schema{Generic: structural.Generic{Type: "object"}}, 0, 2, "object", true, 3},
		{"required without default", &structural.Schema{Generic: structural.Generic{Type: "object"},
			Properties:      map[string]*structural.Schema{"abc": str("integer"), "d": {Generic: structural.Generic{Type: "integer", Default: &crdschema.JSON{Value: int64(1)}}}},
			ValueValidation: &structural.ValueValidation{Required: []string{"abc", "d"}}}, 0, 2 + 3 + 1 + 4, "object", false, 2},
	}
	for _, tt := range tests {
		dt := newDeclType(tt.s, tt.resourceRoot)
		if dt == nil {
			t.Errorf("%s: no type", tt.name)
			continue
		}
		if dt.maxElements != tt.max || dt.minSize != tt.min || dt.name != tt.typeName || len(dt.fields) != tt.wantFieldsLen {
			t.Errorf("%s: got %s max %d min %d fields %d, want %s max %d min %d fields %d", tt.name, dt.name, dt.maxElements, dt.minSize, len(dt.fields), tt.typeName, tt.max, tt.min, tt.wantFieldsLen)
		}
	}
	if dt := newDeclType(&structural.Schema{Generic: structural.Generic{Type: "array"}}, false); dt != nil {
		t.Errorf("array without items: got %v, want no type", dt)
	}
	root := newDeclType(&structural.Schema{Generic: structural.Generic{Type: "object"}}, true)
	meta := root.fields["metadata"]
	if meta.fields["name"].maxElements != 253*4 || meta.fields["generateName"].maxElements != 252*4 {
		t.Errorf("metadata name/generateName sizes: %d, %d", meta.fields["name"].maxElements, meta.fields["generateName"].maxElements)
	}
}

// TestUnbounded checks that an over-budget expression names the lists,
// maps and strings that need limits, for the Kubernetes documentation's
// cost examples.
func TestUnbounded(t *testing.T) {
	strItems := func(maxLen *int64) *structural.Schema {
		s := str("string")
		if maxLen != nil {
			s.ValueValidation = &structural.ValueValidation{MaxLength: maxLen}
		}
		return s
	}
	list := func(items *structural.Schema, maxItems *int64, rules ...string) *structural.Schema {
		l := listOf(items, "")
		if maxItems != nil {
			l.ValueValidation = &structural.ValueValidation{MaxItems: maxItems}
		}
		for _, r := range rules {
			l.XValidations = append(l.XValidations, rule(r))
		}
		return l
	}
	nested := list(list(str("integer"), nil, "self.all(x, x == 5)"), nil)
	tests := []struct {
		name string
		foo  *structural.Schema
		want []string // nil: within budget
	}{
		{"unbounded list of unbounded strings", list(strItems(nil), nil, "self.all(x, x.contains('a string'))"),
			[]string{"s.properties[foo]", "s.properties[foo].items"}},
		{"bounded list (50) of unbounded strings", list(strItems(nil), i64(50), "self.all(x, x.contains('a string'))"),
			[]string{"s.properties[foo].items"}},
		{"bounded list of bounded strings", list(strItems(i64(10)), i64(25), "self.all(x, x.contains('a string'))"), nil},
		{"rule under an unbounded list", nested,
			[]string{"s.properties[foo]", "s.properties[foo].items"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := obj(map[string]*structural.Schema{"foo": tt.foo})
			_, costs, err := CheckSchema(s, crdschema.NewPath("s"))
			if err != nil {
				t.Fatal(err)
			}
			if len(costs) != 1 {
				t.Fatalf("costs: %v", costs)
			}
			c := costs[0]
			if (c.Total() > StaticCostLimit) != (tt.want != nil) {
				t.Fatalf("total %d, want over budget: %v", c.Total(), tt.want != nil)
			}
			if strings.Join(c.Unbounded, " ") != strings.Join(tt.want, " ") {
				t.Errorf("Unbounded = %q, want %q", c.Unbounded, tt.want)
			}
		})
	}
}
