package objectmeta

// ReadMeta is what package prune's Decoder needs of this package's
// internals: the root metadata of obj decoded (see GetObjectMeta) and
// written back in its decoded form, with a zero generation set to 1 when
// defaultGeneration, as the API server sets it for objects read from
// storage; found is false when obj has none.
func ReadMeta(obj map[string]any, opts MetaOptions, defaultGeneration bool) (m map[string]any, found bool, unknown []string, err error) {
	d, found, unknown, err := getMeta(obj, opts)
	if err != nil || !found {
		return nil, found, unknown, err
	}
	if defaultGeneration && d.om.Generation == 0 {
		d.om.Generation = 1
	}
	return metaToMap(&d.om, d.fields), true, unknown, nil
}
