package objectmeta

// What package prune's Decoder needs of this package's internals.

// Decoded is the root metadata of an object as the decoder reads it.
type Decoded struct{ m *meta }

// ReadMeta decodes the root metadata of obj (see GetObjectMeta); found is
// false when obj has none.
func ReadMeta(obj map[string]any, opts MetaOptions) (d Decoded, found bool, unknown []string, err error) {
	m, found, unknown, err := getMeta(obj, opts)
	return Decoded{m}, found, unknown, err
}

// DefaultGeneration sets a zero generation to 1, as the API server does
// for objects read from storage.
func (d Decoded) DefaultGeneration() {
	if d.m != nil && d.m.om.Generation == 0 {
		d.m.om.Generation = 1
	}
}

// Map returns the metadata in its decoded form.
func (d Decoded) Map() map[string]any {
	return metaToMap(&d.m.om, d.m.fields)
}
