package builtin

import "github.com/crdschema/crdschema/internal/metavalidation"

// nameRules are the name checks of the built-in kinds' validation
// (pkg/apis/<group>/validation: ValidateObjectMeta with the kind's
// function), by group and kind. Every other kind gets the check every
// store applies, a name usable as a URL path segment: the weakest rule,
// never stricter than the API server.
var nameRules = map[[2]string]metavalidation.NameFunc{
	{"", "Namespace"}: metavalidation.NameIsDNSLabel,
	// RFC 1035 labels before the RelaxedServiceNameValidation gate,
	// RFC 1123 labels once it is on (1.37 at least): the weaker rule for
	// every release.
	{"", "Service"}:                            metavalidation.NameIsDNSLabel,
	{"", "Pod"}:                                metavalidation.NameIsDNSSubdomain,
	{"", "ConfigMap"}:                          metavalidation.NameIsDNSSubdomain,
	{"", "Secret"}:                             metavalidation.NameIsDNSSubdomain,
	{"", "ServiceAccount"}:                     metavalidation.NameIsDNSSubdomain,
	{"", "PersistentVolumeClaim"}:              metavalidation.NameIsDNSSubdomain,
	{"", "ReplicationController"}:              metavalidation.NameIsDNSSubdomain,
	{"", "PodTemplate"}:                        metavalidation.NameIsDNSSubdomain,
	{"", "LimitRange"}:                         metavalidation.NameIsDNSSubdomain,
	{"", "ResourceQuota"}:                      metavalidation.NameIsDNSSubdomain,
	{"", "Endpoints"}:                          metavalidation.NameIsDNSSubdomain,
	{"", "Node"}:                               metavalidation.NameIsDNSSubdomain,
	{"apps", "Deployment"}:                     metavalidation.NameIsDNSSubdomain,
	{"apps", "ReplicaSet"}:                     metavalidation.NameIsDNSSubdomain,
	{"apps", "StatefulSet"}:                    metavalidation.NameIsDNSSubdomain,
	{"apps", "DaemonSet"}:                      metavalidation.NameIsDNSSubdomain,
	{"apps", "ControllerRevision"}:             metavalidation.NameIsDNSSubdomain,
	{"batch", "Job"}:                           metavalidation.NameIsDNSSubdomain,
	{"batch", "CronJob"}:                       metavalidation.NameIsDNSSubdomain,
	{"autoscaling", "HorizontalPodAutoscaler"}: metavalidation.NameIsDNSSubdomain,
	{"networking.k8s.io", "Ingress"}:           metavalidation.NameIsDNSSubdomain,
	{"networking.k8s.io", "IngressClass"}:      metavalidation.NameIsDNSSubdomain,
	{"networking.k8s.io", "NetworkPolicy"}:     metavalidation.NameIsDNSSubdomain,
	{"scheduling.k8s.io", "PriorityClass"}:     metavalidation.NameIsDNSSubdomain,
	{"storage.k8s.io", "StorageClass"}:         metavalidation.NameIsDNSSubdomain,
	{"admissionregistration.k8s.io", "MutatingWebhookConfiguration"}:   metavalidation.NameIsDNSSubdomain,
	{"admissionregistration.k8s.io", "ValidatingWebhookConfiguration"}: metavalidation.NameIsDNSSubdomain,
}

// nameRule returns the name check of a kind. PodDisruptionBudget is left
// to the path-segment rule: in 1.37 its hand-written validation checks no
// metadata and the declarative one is not authoritative.
func nameRule(k Kind) metavalidation.NameFunc {
	if f := nameRules[[2]string{k.Group, k.Kind}]; f != nil {
		return f
	}
	return metavalidation.NameIsPathSegment
}

// generatesName are the kinds whose strategy names an object created
// without a name (LimitRange: a UUID).
var generatesName = map[[2]string]bool{{"", "LimitRange"}: true}
