package crd

import (
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objectcheck"
	"github.com/crdschema/crdschema/structural"
)

// defaultObject applies the defaults of obj's version, as
// defaulting.Default(obj, r.schemaOf(obj)) does, walking only the parts of
// obj under which the schema has defaults.
func (r *core) defaultObject(obj map[string]any) {
	s := r.schemaOf(obj)
	if s == nil {
		return
	}
	r.prepareWalks()
	if d := r.defaulters[s]; d != nil { // every schema of r.schemas has its own
		d.apply(obj)
	}
}

// prepareWalks cuts the schemas down for the walks of requests, once.
func (r *core) prepareWalks() {
	r.walksOnce.Do(func() {
		r.defaulters = make(map[*structural.Schema]*defaulter, len(r.schemas))
		for _, vs := range r.schemas {
			r.defaulters[vs] = compileDefaulter(defaultsOnly(vs, 0), 0)
		}
		r.listSchema = objectcheck.ListTypesOnly(r.schema)
	})
}

// defaultsOnly returns the part of s that defaulting.Default uses: the
// nodes at or above a default. Default does nothing below a node without
// one, so that it does with the result exactly what it does with s. nil
// means s has no default at all.
func defaultsOnly(s *structural.Schema, depth int) *structural.Schema {
	return objectcheck.CutDown(s, (*structural.Schema).HasDefault, depth)
}

// defaulter applies the defaults of a schema cut down by defaultsOnly as
// defaulting.Default does, with the schema's properties sorted out once:
// the walk looks up the few properties with something to default instead
// of going through every field of the object.
type defaulter struct {
	// set are the properties that have a default.
	set []namedSchema
	// below are the properties with defaults below them, when the object
	// has no additionalProperties.
	below []namedDefaulter
	// With additionalProperties, every field of the object is visited:
	// properties (byName, a nil defaulter where nothing is below) first.
	additional    *structural.Schema
	additionalDef *defaulter
	byName        map[string]*defaulter
	items         *structural.Schema
	itemsDef      *defaulter
	// fallback, for schemas too deep to compile, is defaulted with
	// defaulting.Default.
	fallback *structural.Schema
}

type namedSchema struct {
	name string
	s    *structural.Schema
}

type namedDefaulter struct {
	name string
	d    *defaulter
}

// compileDefaulter compiles s, a schema cut down by defaultsOnly; nil
// means there is nothing to do at or below a value of s.
func compileDefaulter(s *structural.Schema, depth int) *defaulter {
	if s == nil {
		return nil
	}
	if depth > 1000 {
		return &defaulter{fallback: s}
	}
	d := &defaulter{}
	work := false
	for k, p := range s.Properties {
		if p.HasDefault() {
			d.set = append(d.set, namedSchema{k, p})
			work = true
		}
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		d.additional = s.AdditionalProperties.Schema
		d.additionalDef = compileDefaulter(d.additional, depth+1)
		d.byName = make(map[string]*defaulter, len(s.Properties))
		for k, p := range s.Properties {
			d.byName[k] = compileDefaulter(p, depth+1)
		}
		work = true
	} else {
		for k, p := range s.Properties {
			if c := compileDefaulter(p, depth+1); c != nil {
				d.below = append(d.below, namedDefaulter{k, c})
				work = true
			}
		}
	}
	if s.Items != nil {
		d.items = s.Items
		d.itemsDef = compileDefaulter(s.Items, depth+1)
		work = true
	}
	if !work {
		return nil
	}
	return d
}

// apply defaults x as defaulting.Default(x, s) does, s being the schema d
// was compiled from.
func (d *defaulter) apply(x any) {
	if d.fallback != nil {
		defaulting.Default(x, d.fallback)
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for _, p := range d.set {
			if v, ok := x[p.name]; !ok || (v == nil && !p.s.Nullable) {
				x[p.name] = jsonvalue.Copy(p.s.Default.Value)
			}
		}
		if d.additional == nil {
			for _, c := range d.below {
				if v, ok := x[c.name]; ok {
					c.d.apply(v)
				}
			}
			return
		}
		for k, v := range x {
			if c, ok := d.byName[k]; ok {
				if c != nil {
					c.apply(v)
				}
				continue
			}
			if v == nil && !d.additional.Nullable {
				v = defaultCopy(d.additional)
				x[k] = v
			}
			if d.additionalDef != nil {
				d.additionalDef.apply(v)
			}
		}
	case []any:
		if d.items == nil {
			return
		}
		for i, v := range x {
			if v == nil && !d.items.Nullable {
				v = defaultCopy(d.items)
				x[i] = v
			}
			if d.itemsDef != nil {
				d.itemsDef.apply(v)
			}
		}
	}
}

// defaultCopy returns a copy of the default of s, or nil.
func defaultCopy(s *structural.Schema) any {
	if s.Default == nil {
		return nil
	}
	return jsonvalue.Copy(s.Default.Value)
}
