package testserver

import (
	"fmt"

	"github.com/crdschema/crdschema/internal/prune"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/versioning"
)

// metaScheme holds the types of meta.k8s.io every resource's responses use:
// Status, WatchEvent, Table, the options of requests.
var metaScheme = runtime.NewScheme()

func init() {
	metav1.AddToGroupVersion(metaScheme, schema.GroupVersion{Version: "v1"})
	metav1.AddMetaToScheme(metaScheme)
}

// unstructuredCreator creates the empty unstructured object of a kind.
type unstructuredCreator struct{}

func (unstructuredCreator) New(kind schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(kind)
	return u, nil
}

// unstructuredTyper types unstructured objects by their apiVersion and kind
// and everything else by metaScheme.
type unstructuredTyper struct{}

func (unstructuredTyper) ObjectKinds(obj runtime.Object) ([]schema.GroupVersionKind, bool, error) {
	if u, ok := obj.(runtime.Unstructured); ok {
		gvk := u.GetObjectKind().GroupVersionKind()
		if gvk.Kind == "" {
			return nil, false, runtime.NewMissingKindErr("object has no kind field ")
		}
		if gvk.Version == "" {
			return nil, false, runtime.NewMissingVersionErr("object has no apiVersion field")
		}
		return []schema.GroupVersionKind{gvk}, false, nil
	}
	return metaScheme.ObjectKinds(obj)
}

func (unstructuredTyper) Recognizes(gvk schema.GroupVersionKind) bool { return true }

// converter converts objects of one kind between its served versions: with
// the conversion strategy None, by setting the apiVersion. Field labels are
// those the kind's selector supports.
type converter struct {
	group         string
	supportsField func(version, label string) bool
}

func (c converter) Convert(in, out, context any) error {
	ui, ok1 := in.(*unstructured.Unstructured)
	uo, ok2 := out.(*unstructured.Unstructured)
	if ok1 && ok2 {
		uo.Object = deepCopyMap(ui.Object)
		return nil
	}
	return metaScheme.Convert(in, out, context)
}

func (c converter) ConvertToVersion(in runtime.Object, gv runtime.GroupVersioner) (runtime.Object, error) {
	switch u := in.(type) {
	case *unstructured.Unstructured:
		from := u.GroupVersionKind()
		to, ok := gv.KindForGroupVersionKinds([]schema.GroupVersionKind{from})
		if !ok {
			return nil, fmt.Errorf("%v is unstructured and is not suitable for converting to %q", from, gv)
		}
		if to.GroupVersion() == from.GroupVersion() {
			return in, nil
		}
		if to.Group != from.Group {
			return nil, fmt.Errorf("cannot convert %s to group %s", from, to.Group)
		}
		out := &unstructured.Unstructured{Object: deepCopyMap(u.Object)}
		out.SetAPIVersion(to.GroupVersion().String())
		return out, nil
	case *unstructured.UnstructuredList:
		out := &unstructured.UnstructuredList{Object: deepCopyMap(u.Object)}
		for i := range u.Items {
			o, err := c.ConvertToVersion(&u.Items[i], gv)
			if err != nil {
				return nil, err
			}
			out.Items = append(out.Items, *o.(*unstructured.Unstructured))
		}
		from := u.GroupVersionKind()
		if to, ok := gv.KindForGroupVersionKinds([]schema.GroupVersionKind{from}); ok {
			out.SetAPIVersion(to.GroupVersion().String())
		}
		return out, nil
	}
	if out, err := metaScheme.ConvertToVersion(in, gv); err == nil {
		return out, nil
	}
	// The types of meta.k8s.io (a WatchEvent) are written as they are.
	return in, nil
}

func (c converter) ConvertFieldLabel(gvk schema.GroupVersionKind, label, value string) (string, string, error) {
	if c.supportsField != nil && c.supportsField(gvk.Version, label) {
		return label, value, nil
	}
	return "", "", fmt.Errorf("field label not supported: %s", label)
}

// negotiatedSerializer encodes and decodes unstructured objects of one kind
// as JSON and YAML, as the API server's serializer for custom resources does.
type negotiatedSerializer struct {
	conv  converter
	media []runtime.SerializerInfo
	// decoder runs on every decoded object of the kind (nil for a
	// built-in kind).
	decoder *prune.Decoder
}

func newNegotiatedSerializer(conv converter, decoder *prune.Decoder) negotiatedSerializer {
	creator, typer := unstructuredCreator{}, unstructuredTyper{}
	opts := func(o json.SerializerOptions) *json.Serializer {
		return json.NewSerializerWithOptions(json.DefaultMetaFactory, creator, typer, o)
	}
	return negotiatedSerializer{conv: conv, decoder: decoder, media: []runtime.SerializerInfo{
		{
			MediaType:        "application/json",
			MediaTypeType:    "application",
			MediaTypeSubType: "json",
			EncodesAsText:    true,
			Serializer:       opts(json.SerializerOptions{}),
			PrettySerializer: opts(json.SerializerOptions{Pretty: true}),
			StrictSerializer: opts(json.SerializerOptions{Strict: true}),
			StreamSerializer: &runtime.StreamSerializerInfo{
				EncodesAsText: true,
				Serializer:    opts(json.SerializerOptions{}),
				Framer:        json.Framer,
			},
		},
		{
			MediaType:        "application/yaml",
			MediaTypeType:    "application",
			MediaTypeSubType: "yaml",
			EncodesAsText:    true,
			Serializer:       opts(json.SerializerOptions{Yaml: true}),
			StrictSerializer: opts(json.SerializerOptions{Yaml: true, Strict: true}),
		},
	}}
}

func (s negotiatedSerializer) SupportedMediaTypes() []runtime.SerializerInfo { return s.media }

func (s negotiatedSerializer) EncoderForVersion(encoder runtime.Encoder, gv runtime.GroupVersioner) runtime.Encoder {
	return versioning.NewCodec(encoder, nil, s.conv, metaScheme, metaScheme, metaScheme, gv, nil, "testserver")
}

func (s negotiatedSerializer) DecoderToVersion(decoder runtime.Decoder, gv runtime.GroupVersioner) runtime.Decoder {
	if s.decoder != nil {
		strict := false
		if js, ok := decoder.(*json.Serializer); ok {
			strict = js.IsStrict()
		}
		decoder = pruningDecoder{delegate: decoder, decoder: s.decoder, strict: strict}
	}
	return versioning.NewCodec(nil, decoder, runtime.UnsafeObjectConvertor(metaScheme), metaScheme, metaScheme, metaScheme, nil, gv, "testserver")
}

// pruningDecoder runs crdschema's request decoder on what delegate decodes:
// unknown fields are pruned and, for a strict decoder, reported as strict
// decoding errors, which the handlers turn into warnings (fieldValidation
// Warn) or a 400 (Strict), as the API server's decoder does.
type pruningDecoder struct {
	delegate runtime.Decoder
	decoder  *prune.Decoder
	strict   bool
}

func (d pruningDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	var strictErrs []error
	obj, gvk, err := d.delegate.Decode(data, defaults, into)
	if err != nil {
		se, ok := runtime.AsStrictDecodingError(err)
		if !ok || obj == nil {
			return nil, gvk, err
		}
		strictErrs = se.Errors()
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		if len(strictErrs) > 0 {
			return obj, gvk, runtime.NewStrictDecodingError(strictErrs)
		}
		return obj, gvk, nil
	}
	unknown, err := d.decoder.Decode(u.Object)
	if err != nil {
		return nil, gvk, err
	}
	if d.strict && (len(strictErrs) > 0 || len(unknown) > 0) {
		for _, f := range unknown {
			strictErrs = append(strictErrs, fmt.Errorf("unknown field %q", f))
		}
		return obj, gvk, runtime.NewStrictDecodingError(strictErrs)
	}
	return obj, gvk, nil
}
