package crdschema

import (
	"encoding/base64"
	"math"
	"slices"
	"strconv"
	"time"
)

// The part of crdFromJSONFast that reads everything of a CRD document but
// the version schemas, straight into the CRD types, as the strict decoder
// of crdFromJSONGeneric fills them when it has nothing to object to:
// null leaves a field as it is (zero), a list element null is the zero
// element, [] is an empty list. Everything else fails the reader, and
// the document goes to crdFromJSONGeneric: a field the type does not have
// (the strict decoder reports those), a key given twice, a value of
// another JSON type, a number the field cannot hold,
// metadata.managedFields (crdFromJSONGeneric passes their raw fieldsV1
// through the generic form, which changes its bytes).

// fields reads an object whose members are fields of a struct, names
// being their JSON names; member reads the value of the member k, which
// is not null.
func (d *crdReader) fields(names []string, member func(k string)) {
	r := d.r
	if !r.BeginObject() {
		return
	}
	var seen uint64
	for k, ok := r.NextKey(); ok; k, ok = r.NextKey() {
		i := slices.Index(names, k)
		if i < 0 || seen&(1<<i) != 0 {
			r.Fail()
			return
		}
		seen |= 1 << i
		if r.Kind() == 'n' {
			r.Null()
			continue
		}
		member(k)
	}
}

// readList reads a list, elem reading each element that is not null into
// its place; a null element stays the zero T.
func readList[T any](d *crdReader, elem func(e *T, i int)) []T {
	r := d.r
	if !r.BeginArray() {
		return nil
	}
	out := []T{}
	for i := 0; r.NextElement(); i++ {
		var zero T
		out = append(out, zero)
		if r.Kind() == 'n' {
			r.Null()
			continue
		}
		elem(&out[i], i)
	}
	return out
}

var crdFields = []string{"kind", "apiVersion", "metadata", "spec", "status"}

// crd reads a whole CRD document into c, its version schemas by
// schemaObject.
func (d *crdReader) crd(c *CustomResourceDefinition) {
	r := d.r
	d.fields(crdFields, func(k string) {
		switch k {
		case "kind":
			c.Kind = r.Text()
		case "apiVersion":
			c.APIVersion = r.Text()
		case "metadata":
			d.objectMeta(&c.ObjectMeta)
		case "spec":
			d.spec(&c.Spec)
		case "status":
			d.status(&c.Status)
		}
	})
}

var objectMetaFields = []string{"name", "generateName", "namespace", "selfLink", "uid", "resourceVersion",
	"generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels",
	"annotations", "ownerReferences", "finalizers"}

func (d *crdReader) objectMeta(m *ObjectMeta) {
	r := d.r
	d.fields(objectMetaFields, func(k string) {
		switch k {
		case "name":
			m.Name = r.Text()
		case "generateName":
			m.GenerateName = r.Text()
		case "namespace":
			m.Namespace = r.Text()
		case "selfLink":
			m.SelfLink = r.Text()
		case "uid":
			m.UID = r.Text()
		case "resourceVersion":
			m.ResourceVersion = r.Text()
		case "generation":
			m.Generation = d.int64()
		case "creationTimestamp":
			m.CreationTimestamp = d.time()
		case "deletionTimestamp":
			t := d.time()
			m.DeletionTimestamp = &t
		case "deletionGracePeriodSeconds":
			n := d.int64()
			m.DeletionGracePeriodSeconds = &n
		case "labels":
			m.Labels = d.stringMap()
		case "annotations":
			m.Annotations = d.stringMap()
		case "ownerReferences":
			m.OwnerReferences = readList(d, func(o *OwnerReference, _ int) { d.ownerReference(o) })
		case "finalizers":
			m.Finalizers = d.stringList()
		}
	})
}

var ownerReferenceFields = []string{"apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"}

func (d *crdReader) ownerReference(o *OwnerReference) {
	r := d.r
	d.fields(ownerReferenceFields, func(k string) {
		switch k {
		case "apiVersion":
			o.APIVersion = r.Text()
		case "kind":
			o.Kind = r.Text()
		case "name":
			o.Name = r.Text()
		case "uid":
			o.UID = r.Text()
		case "controller":
			b := r.Bool()
			o.Controller = &b
		case "blockOwnerDeletion":
			b := r.Bool()
			o.BlockOwnerDeletion = &b
		}
	})
}

var specFields = []string{"group", "names", "scope", "versions", "conversion", "preserveUnknownFields"}

func (d *crdReader) spec(s *CustomResourceDefinitionSpec) {
	r := d.r
	d.fields(specFields, func(k string) {
		switch k {
		case "group":
			s.Group = r.Text()
		case "names":
			d.names(&s.Names)
		case "scope":
			s.Scope = ResourceScope(r.Text())
		case "versions":
			s.Versions = readList(d, d.version)
		case "conversion":
			s.Conversion = new(CustomResourceConversion)
			d.conversion(s.Conversion)
		case "preserveUnknownFields":
			s.PreserveUnknownFields = r.Bool()
		}
	})
}

var namesFields = []string{"plural", "singular", "shortNames", "kind", "listKind", "categories"}

func (d *crdReader) names(n *CustomResourceDefinitionNames) {
	r := d.r
	d.fields(namesFields, func(k string) {
		switch k {
		case "plural":
			n.Plural = r.Text()
		case "singular":
			n.Singular = r.Text()
		case "shortNames":
			n.ShortNames = d.stringList()
		case "kind":
			n.Kind = r.Text()
		case "listKind":
			n.ListKind = r.Text()
		case "categories":
			n.Categories = d.stringList()
		}
	})
}

var versionFields = []string{"name", "served", "storage", "deprecated", "deprecationWarning", "schema",
	"subresources", "additionalPrinterColumns", "selectableFields"}

// version reads the version of index i.
func (d *crdReader) version(v *CustomResourceDefinitionVersion, i int) {
	r := d.r
	d.fields(versionFields, func(k string) {
		switch k {
		case "name":
			v.Name = r.Text()
		case "served":
			v.Served = r.Bool()
		case "storage":
			v.Storage = r.Bool()
		case "deprecated":
			v.Deprecated = r.Bool()
		case "deprecationWarning":
			s := r.Text()
			v.DeprecationWarning = &s
		case "schema":
			v.Schema = new(CustomResourceValidation)
			d.fields(validationFields, func(string) {
				v.Schema.OpenAPIV3Schema = new(JSONSchemaProps)
				d.enter("spec.versions["+strconv.Itoa(i)+"].schema.openAPIV3Schema", "", false, -1)
				d.schemaObject(v.Schema.OpenAPIV3Schema)
				d.leave()
			})
		case "subresources":
			v.Subresources = new(CustomResourceSubresources)
			d.subresources(v.Subresources)
		case "additionalPrinterColumns":
			v.AdditionalPrinterColumns = readList(d, func(c *CustomResourceColumnDefinition, _ int) { d.column(c) })
		case "selectableFields":
			v.SelectableFields = readList(d, func(f *SelectableField, _ int) {
				d.fields(selectableFieldFields, func(string) { f.JSONPath = r.Text() })
			})
		}
	})
}

var (
	validationFields      = []string{"openAPIV3Schema"}
	selectableFieldFields = []string{"jsonPath"}
	subresourcesFields    = []string{"status", "scale"}
	scaleFields           = []string{"specReplicasPath", "statusReplicasPath", "labelSelectorPath"}
)

func (d *crdReader) subresources(s *CustomResourceSubresources) {
	r := d.r
	d.fields(subresourcesFields, func(k string) {
		switch k {
		case "status":
			s.Status = new(CustomResourceSubresourceStatus)
			d.fields(nil, nil)
		case "scale":
			sc := new(CustomResourceSubresourceScale)
			s.Scale = sc
			d.fields(scaleFields, func(k string) {
				switch k {
				case "specReplicasPath":
					sc.SpecReplicasPath = r.Text()
				case "statusReplicasPath":
					sc.StatusReplicasPath = r.Text()
				case "labelSelectorPath":
					p := r.Text()
					sc.LabelSelectorPath = &p
				}
			})
		}
	})
}

var columnFields = []string{"name", "type", "format", "description", "priority", "jsonPath"}

func (d *crdReader) column(c *CustomResourceColumnDefinition) {
	r := d.r
	d.fields(columnFields, func(k string) {
		switch k {
		case "name":
			c.Name = r.Text()
		case "type":
			c.Type = r.Text()
		case "format":
			c.Format = r.Text()
		case "description":
			c.Description = r.Text()
		case "priority":
			c.Priority = d.int32()
		case "jsonPath":
			c.JSONPath = r.Text()
		}
	})
}

var (
	conversionFields   = []string{"strategy", "webhook"}
	webhookFields      = []string{"clientConfig", "conversionReviewVersions"}
	clientConfigFields = []string{"url", "service", "caBundle"}
	serviceFields      = []string{"namespace", "name", "path", "port"}
	statusFields       = []string{"conditions", "acceptedNames", "storedVersions", "observedGeneration"}
	conditionFields    = []string{"type", "status", "lastTransitionTime", "reason", "message", "observedGeneration"}
)

func (d *crdReader) conversion(c *CustomResourceConversion) {
	r := d.r
	d.fields(conversionFields, func(k string) {
		switch k {
		case "strategy":
			c.Strategy = ConversionStrategyType(r.Text())
		case "webhook":
			w := new(WebhookConversion)
			c.Webhook = w
			d.fields(webhookFields, func(k string) {
				switch k {
				case "clientConfig":
					w.ClientConfig = new(WebhookClientConfig)
					d.clientConfig(w.ClientConfig)
				case "conversionReviewVersions":
					w.ConversionReviewVersions = d.stringList()
				}
			})
		}
	})
}

func (d *crdReader) clientConfig(c *WebhookClientConfig) {
	r := d.r
	d.fields(clientConfigFields, func(k string) {
		switch k {
		case "url":
			u := r.Text()
			c.URL = &u
		case "service":
			s := new(ServiceReference)
			c.Service = s
			d.fields(serviceFields, func(k string) {
				switch k {
				case "namespace":
					s.Namespace = r.Text()
				case "name":
					s.Name = r.Text()
				case "path":
					p := r.Text()
					s.Path = &p
				case "port":
					p := d.int32()
					s.Port = &p
				}
			})
		case "caBundle":
			// As encoding/json decodes a []byte: base64, standard alphabet.
			b, err := base64.StdEncoding.DecodeString(r.Text())
			if err != nil {
				r.Fail()
			}
			c.CABundle = b
		}
	})
}

func (d *crdReader) status(s *CustomResourceDefinitionStatus) {
	d.fields(statusFields, func(k string) {
		switch k {
		case "conditions":
			s.Conditions = readList(d, func(c *CustomResourceDefinitionCondition, _ int) { d.condition(c) })
		case "acceptedNames":
			d.names(&s.AcceptedNames)
		case "storedVersions":
			s.StoredVersions = d.stringList()
		case "observedGeneration":
			s.ObservedGeneration = d.int64()
		}
	})
}

func (d *crdReader) condition(c *CustomResourceDefinitionCondition) {
	r := d.r
	d.fields(conditionFields, func(k string) {
		switch k {
		case "type":
			c.Type = CustomResourceDefinitionConditionType(r.Text())
		case "status":
			c.Status = ConditionStatus(r.Text())
		case "lastTransitionTime":
			c.LastTransitionTime = d.time()
		case "reason":
			c.Reason = r.Text()
		case "message":
			c.Message = r.Text()
		case "observedGeneration":
			c.ObservedGeneration = d.int64()
		}
	})
}

// int64 reads an integer as encoding/json reads one into an int64: no
// fraction, no exponent.
func (d *crdReader) int64() int64 {
	n, _, isInt := d.r.Number()
	if !isInt {
		d.r.Fail()
	}
	return n
}

// int32 reads an integer that must fit an int32.
func (d *crdReader) int32() int32 {
	n := d.int64()
	if n < math.MinInt32 || n > math.MaxInt32 {
		d.r.Fail()
	}
	return int32(n)
}

// time reads a Time as its UnmarshalJSON does: an RFC 3339 string.
func (d *crdReader) time() Time {
	t, err := time.Parse(time.RFC3339, d.r.Text())
	if err != nil {
		d.r.Fail()
		return Time{}
	}
	return Time{t.Local()}
}

// stringMap reads an object of strings.
func (d *crdReader) stringMap() map[string]string {
	r := d.r
	if !r.BeginObject() {
		return nil
	}
	out := map[string]string{}
	for k, ok := r.NextKey(); ok; k, ok = r.NextKey() {
		if _, dup := out[k]; dup {
			r.Fail()
			return nil
		}
		out[k] = r.Text()
	}
	return out
}
