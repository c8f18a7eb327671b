package oracle

import (
	"k8s.io/apimachinery/pkg/runtime"
	api "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/capabilities"
)

func init() {
	// kube-apiserver --allow-privileged=true, as kubeadm, kind and the
	// managed clusters run it (the flag's default is false).
	capabilities.Setup(true, 0)
}

// allocate does what the service REST storage does before validation: it
// allocates a cluster IP, IP families and node ports (create), or keeps
// the stored ones (update, old non-nil).
func allocate(obj, old runtime.Object) {
	svc, ok := obj.(*api.Service)
	if !ok {
		return
	}
	if o, ok := old.(*api.Service); ok {
		if svc.Spec.ClusterIP == "" {
			svc.Spec.ClusterIP = o.Spec.ClusterIP
		}
		if len(svc.Spec.ClusterIPs) == 0 {
			svc.Spec.ClusterIPs = o.Spec.ClusterIPs
		}
		if len(svc.Spec.IPFamilies) == 0 {
			svc.Spec.IPFamilies = o.Spec.IPFamilies
		}
		if svc.Spec.IPFamilyPolicy == nil {
			svc.Spec.IPFamilyPolicy = o.Spec.IPFamilyPolicy
		}
		if svc.Spec.HealthCheckNodePort == 0 {
			svc.Spec.HealthCheckNodePort = o.Spec.HealthCheckNodePort
		}
		for i := range svc.Spec.Ports {
			if svc.Spec.Ports[i].NodePort == 0 && i < len(o.Spec.Ports) {
				svc.Spec.Ports[i].NodePort = o.Spec.Ports[i].NodePort
			}
		}
	}
	if svc.Spec.Type == api.ServiceTypeExternalName {
		return
	}
	if svc.Spec.ClusterIP == "" {
		svc.Spec.ClusterIP = "10.96.0.10"
	}
	if len(svc.Spec.ClusterIPs) == 0 {
		svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
	}
	if len(svc.Spec.IPFamilies) == 0 {
		svc.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol}
	}
	if svc.Spec.IPFamilyPolicy == nil {
		p := api.IPFamilyPolicySingleStack
		svc.Spec.IPFamilyPolicy = &p
	}
	nodePorts := svc.Spec.Type == api.ServiceTypeNodePort ||
		(svc.Spec.Type == api.ServiceTypeLoadBalancer && (svc.Spec.AllocateLoadBalancerNodePorts == nil || *svc.Spec.AllocateLoadBalancerNodePorts))
	for i := range svc.Spec.Ports {
		if nodePorts && svc.Spec.Ports[i].NodePort == 0 {
			svc.Spec.Ports[i].NodePort = int32(30000 + i)
		}
	}
	if svc.Spec.Type == api.ServiceTypeLoadBalancer && svc.Spec.ExternalTrafficPolicy == api.ServiceExternalTrafficPolicyLocal && svc.Spec.HealthCheckNodePort == 0 {
		svc.Spec.HealthCheckNodePort = 32000
	}
}
