package testserver

import (
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes/scheme"
)

// protobufBridge is the protobuf serializer of the built-in kinds, which
// client-go's generated clients always use: objects are decoded into their
// Go types and converted to the unstructured form the server stores, and
// back.
func protobufBridge() runtime.SerializerInfo {
	proto := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	raw := protobuf.NewRawSerializer(scheme.Scheme, scheme.Scheme)
	return runtime.SerializerInfo{
		MediaType:        runtime.ContentTypeProtobuf,
		MediaTypeType:    "application",
		MediaTypeSubType: "vnd.kubernetes.protobuf",
		Serializer:       bridge{proto},
		StrictSerializer: bridge{proto},
		StreamSerializer: &runtime.StreamSerializerInfo{
			Serializer: bridge{raw},
			Framer:     protobuf.LengthDelimitedFramer,
		},
	}
}

type bridge struct{ proto runtime.Serializer }

func (b bridge) Identifier() runtime.Identifier { return "testserver-protobuf-" + b.proto.Identifier() }

func (b bridge) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	obj, gvk, err := b.proto.Decode(data, defaults, nil)
	if err != nil {
		return nil, gvk, err
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, gvk, err
	}
	u := &unstructured.Unstructured{Object: m}
	if gvk != nil {
		u.SetGroupVersionKind(*gvk)
	}
	if into, ok := into.(*unstructured.Unstructured); ok && into != nil {
		into.Object = u.Object
		return into, gvk, nil
	}
	return u, gvk, nil
}

func (b bridge) Encode(obj runtime.Object, w io.Writer) error {
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		typed, err := scheme.Scheme.New(o.GroupVersionKind())
		if err != nil {
			return err
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, typed); err != nil {
			return fmt.Errorf("encoding %s as protobuf: %w", o.GroupVersionKind(), err)
		}
		typed.GetObjectKind().SetGroupVersionKind(o.GroupVersionKind())
		return b.proto.Encode(typed, w)
	case *unstructured.UnstructuredList:
		typed, err := scheme.Scheme.New(o.GroupVersionKind())
		if err != nil {
			return err
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.UnstructuredContent(), typed); err != nil {
			return fmt.Errorf("encoding %s as protobuf: %w", o.GroupVersionKind(), err)
		}
		typed.GetObjectKind().SetGroupVersionKind(o.GroupVersionKind())
		return b.proto.Encode(typed, w)
	}
	return b.proto.Encode(obj, w)
}
