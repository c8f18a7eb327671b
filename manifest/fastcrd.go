package manifest

import (
	"bytes"
	"errors"
	"strings"
	"sync"

	"github.com/crdschema/crdschema"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// The fast CRD decode: github.com/go-json-experiment/json (the prototype
// of encoding/json/v2) streams the body into the types in one pass, where
// sigs.k8s.io/json rescans every nested schema once per level through the
// JSON methods of the schema unions. It is strict where the reference
// path is lenient or reports something: an unknown member, a repeated
// name, invalid UTF-8 or any wrongly typed value is an error here, and
// crdFromJSON then decodes the body again with sigs.k8s.io/json, whose
// result, errors and unknown-field paths are the ones returned. So the
// fast decode only answers for the bodies on which both decoders agree
// (FuzzFastCRDDecode compares them).

// fastDecoder holds the options of the fast decode and the strings of
// one decode: unknown members are errors, and the schema unions, schema
// maps and strings are read by functions of ours, as sigs.k8s.io/json
// reads them. Free-form values go to the JSON type's own method; byte
// strings to the library's base64, stricter than encoding/json's (it
// refuses line breaks), so that the reference decode reads those. The
// decoders are pooled, since the options' functions keep their state and
// the library keeps a cache per set of options.
type fastDecoder struct {
	opts jsonv2.Options
	// strs holds the text of every string of one decode, one after the
	// other; each decoded string is a part of it, so that a decode
	// allocates its strings once rather than one by one.
	strs    strings.Builder
	scratch []byte
	// schemas holds a schema for each level of schema maps being
	// decoded, into which each member of a map at that level is decoded
	// before the map takes a copy; depth is the level of the next map.
	schemas []*crdschema.JSONSchemaProps
	depth   int
}

var fastDecoders = sync.Pool{New: func() any {
	d := new(fastDecoder)
	d.opts = jsonv2.JoinOptions(
		jsonv2.RejectUnknownMembers(true),
		jsonv2.WithUnmarshalers(jsonv2.JoinUnmarshalers(
			jsonv2.UnmarshalFromFunc(unmarshalPropsOrBool),
			jsonv2.UnmarshalFromFunc(unmarshalPropsOrArray),
			jsonv2.UnmarshalFromFunc(unmarshalPropsOrStringArray),
			jsonv2.UnmarshalFromFunc(d.unmarshalSchemaMap),
			jsonv2.UnmarshalFromFunc(d.unmarshalString),
		)),
	)
	return d
}}

// errFastUnsure is returned where the fast decode leaves a value to the
// reference decode.
var errFastUnsure = errors.New("left to the reference decode")

// fastCRD decodes j into a new CustomResourceDefinition, or fails; a
// failure says nothing about j except that the reference decode must
// answer.
func fastCRD(j []byte) (*crdschema.CustomResourceDefinition, error) {
	d := fastDecoders.Get().(*fastDecoder)
	d.strs.Grow(len(j)) // the strings' text is never longer than the JSON
	crd := new(crdschema.CustomResourceDefinition)
	err := jsonv2.Unmarshal(j, crd, d.opts)
	d.strs.Reset() // the text now belongs to crd
	for _, s := range d.schemas {
		*s = crdschema.JSONSchemaProps{} // nor keep crd's values alive
	}
	d.depth = 0 // after an error, the maps being decoded did not end
	fastDecoders.Put(d)
	if err != nil {
		return nil, err
	}
	return crd, nil
}

// unmarshalPropsOrBool decodes a schema, true or false. Null is left to
// the library, which sets the pointer to nil as sigs.k8s.io/json does.
func unmarshalPropsOrBool(dec *jsontext.Decoder, p **crdschema.JSONSchemaPropsOrBool) error {
	switch dec.PeekKind() {
	case 'n':
		return jsonv2.SkipFunc
	case '{':
		b := new(struct { // one allocation for the union and its schema
			u crdschema.JSONSchemaPropsOrBool
			s crdschema.JSONSchemaProps
		})
		b.u.Allows, b.u.Schema, *p = true, &b.s, &b.u
		return jsonv2.UnmarshalDecode(dec, &b.s)
	case 't', 'f':
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		*p = &crdschema.JSONSchemaPropsOrBool{Allows: tok.Bool()}
		return nil
	}
	return errFastUnsure
}

// unmarshalPropsOrArray decodes a schema or a list of schemas; another
// value decodes as neither, as in the reference decode. Null is left to
// the library, which sets the pointer to nil.
func unmarshalPropsOrArray(dec *jsontext.Decoder, p **crdschema.JSONSchemaPropsOrArray) error {
	switch dec.PeekKind() {
	case 'n':
		return jsonv2.SkipFunc
	case '{':
		b := new(struct { // one allocation for the union and its schema
			u crdschema.JSONSchemaPropsOrArray
			s crdschema.JSONSchemaProps
		})
		b.u.Schema, *p = &b.s, &b.u
		return jsonv2.UnmarshalDecode(dec, &b.s)
	}
	*p = new(crdschema.JSONSchemaPropsOrArray)
	return schemaOrList(dec, &(*p).Schema, &(*p).JSONSchemas)
}

// unmarshalPropsOrStringArray decodes a schema or a list of names;
// another value (null too) decodes as neither, as in the reference decode.
func unmarshalPropsOrStringArray(dec *jsontext.Decoder, s *crdschema.JSONSchemaPropsOrStringArray) error {
	*s = crdschema.JSONSchemaPropsOrStringArray{}
	return schemaOrList(dec, &s.Schema, &s.Property)
}

// schemaOrList decodes the next value, a schema into *schema or a list
// into *list (empty, not nil, when the list is); it skips any other value.
func schemaOrList[T any](dec *jsontext.Decoder, schema **crdschema.JSONSchemaProps, list *[]T) error {
	switch dec.PeekKind() {
	case '{':
		*schema = new(crdschema.JSONSchemaProps)
		return jsonv2.UnmarshalDecode(dec, *schema)
	case '[':
		*list = []T{}
		return jsonv2.UnmarshalDecode(dec, list)
	}
	return dec.SkipValue()
}

// unmarshalSchemaMap decodes the properties (or definitions, pattern
// properties) of a schema without reflection on the map.
func (d *fastDecoder) unmarshalSchemaMap(dec *jsontext.Decoder, m *map[string]crdschema.JSONSchemaProps) error {
	if dec.PeekKind() != '{' {
		return jsonv2.SkipFunc
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	out := map[string]crdschema.JSONSchemaProps{}
	if d.depth == len(d.schemas) {
		d.schemas = append(d.schemas, new(crdschema.JSONSchemaProps))
	}
	s := d.schemas[d.depth]
	d.depth++
	for dec.PeekKind() == '"' {
		raw, err := dec.ReadValue()
		if err != nil {
			return err
		}
		name, err := d.text(raw) // before the next read voids raw
		if err != nil {
			return err
		}
		*s = crdschema.JSONSchemaProps{}
		if err := jsonv2.UnmarshalDecode(dec, s); err != nil {
			return err
		}
		out[name] = *s
	}
	d.depth--
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	*m = out
	return nil
}

// unmarshalString decodes a string into the text of the decode; null and
// other values are left to the library.
func (d *fastDecoder) unmarshalString(dec *jsontext.Decoder, s *string) error {
	if dec.PeekKind() != '"' {
		return jsonv2.SkipFunc
	}
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	*s, err = d.text(raw)
	return err
}

// text returns the text of the JSON string raw (valid, as the decoder
// read it), as a part of the decode's strings.
func (d *fastDecoder) text(raw jsontext.Value) (string, error) {
	start := d.strs.Len()
	if bytes.IndexByte(raw, '\\') < 0 {
		d.strs.Write(raw[1 : len(raw)-1])
	} else {
		var err error
		if d.scratch, err = jsontext.AppendUnquote(d.scratch[:0], raw); err != nil {
			return "", err
		}
		d.strs.Write(d.scratch)
	}
	return d.strs.String()[start:], nil
}
