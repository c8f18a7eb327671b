package oracle

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/rest"

	mutatingwebhookconfiguration "k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingwebhookconfiguration"
	validatingwebhookconfiguration "k8s.io/kubernetes/pkg/registry/admissionregistration/validatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/apps/controllerrevision"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/coordination/lease"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
	"k8s.io/kubernetes/pkg/registry/core/endpoint"
	"k8s.io/kubernetes/pkg/registry/core/limitrange"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/podtemplate"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	"k8s.io/kubernetes/pkg/registry/core/resourcequota"
	"k8s.io/kubernetes/pkg/registry/core/secret"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/core/serviceaccount"
	"k8s.io/kubernetes/pkg/registry/discovery/endpointslice"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/ingressclass"
	"k8s.io/kubernetes/pkg/registry/networking/networkpolicy"
	"k8s.io/kubernetes/pkg/registry/node/runtimeclass"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrole"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrolebinding"
	"k8s.io/kubernetes/pkg/registry/rbac/role"
	"k8s.io/kubernetes/pkg/registry/rbac/rolebinding"
	"k8s.io/kubernetes/pkg/registry/scheduling/priorityclass"
	"k8s.io/kubernetes/pkg/registry/storage/csidriver"
	"k8s.io/kubernetes/pkg/registry/storage/storageclass"
)

// strategy is what the API server's store runs for one resource on create
// and update.
type strategy interface {
	rest.RESTCreateStrategy
	rest.RESTUpdateStrategy
}

// strategies are the stores' strategies of the kinds the oracle serves,
// by group and kind (every served version shares them).
var strategies = map[schema.GroupKind]strategy{
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:   mutatingwebhookconfiguration.Strategy,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}: validatingwebhookconfiguration.Strategy,
	{Group: "apps", Kind: "ControllerRevision"}:                                     controllerrevision.Strategy,
	{Group: "apps", Kind: "DaemonSet"}:                                              daemonset.Strategy,
	{Group: "apps", Kind: "Deployment"}:                                             deployment.Strategy,
	{Group: "apps", Kind: "ReplicaSet"}:                                             replicaset.Strategy,
	{Group: "apps", Kind: "StatefulSet"}:                                            statefulset.Strategy,
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}:                         horizontalpodautoscaler.Strategy,
	{Group: "batch", Kind: "CronJob"}:                                               cronjob.Strategy,
	{Group: "batch", Kind: "Job"}:                                                   job.Strategy,
	{Group: "coordination.k8s.io", Kind: "Lease"}:                                   lease.Strategy,
	{Kind: "ConfigMap"}:                                                             configmap.Strategy,
	{Kind: "Endpoints"}:                                                             endpoint.Strategy,
	{Kind: "LimitRange"}:                                                            limitrange.Strategy,
	{Kind: "Namespace"}:                                                             namespace.Strategy,
	{Kind: "PersistentVolume"}:                                                      persistentvolume.Strategy,
	{Kind: "PersistentVolumeClaim"}:                                                 persistentvolumeclaim.Strategy,
	{Kind: "Pod"}:                                                                   pod.Strategy,
	{Kind: "PodTemplate"}:                                                           podtemplate.Strategy,
	{Kind: "ReplicationController"}:                                                 replicationcontroller.Strategy,
	{Kind: "ResourceQuota"}:                                                         resourcequota.Strategy,
	{Kind: "Secret"}:                                                                secret.Strategy,
	{Kind: "Service"}:                                                               service.Strategy,
	{Kind: "ServiceAccount"}:                                                        serviceaccount.Strategy,
	{Group: "discovery.k8s.io", Kind: "EndpointSlice"}:                              endpointslice.Strategy,
	{Group: "networking.k8s.io", Kind: "Ingress"}:                                   ingress.Strategy,
	{Group: "networking.k8s.io", Kind: "IngressClass"}:                              ingressclass.Strategy,
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"}:                             networkpolicy.Strategy,
	{Group: "node.k8s.io", Kind: "RuntimeClass"}:                                    runtimeclass.Strategy,
	{Group: "policy", Kind: "PodDisruptionBudget"}:                                  poddisruptionbudget.Strategy,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:                       clusterrole.Strategy,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}:                clusterrolebinding.Strategy,
	{Group: "rbac.authorization.k8s.io", Kind: "Role"}:                              role.Strategy,
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}:                       rolebinding.Strategy,
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}:                             priorityclass.Strategy,
	{Group: "storage.k8s.io", Kind: "CSIDriver"}:                                    csidriver.Strategy,
	{Group: "storage.k8s.io", Kind: "StorageClass"}:                                 storageclass.Strategy,
}
