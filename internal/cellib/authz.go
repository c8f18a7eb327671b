package cellib

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// The types of the Kubernetes authorization library.
var (
	AuthorizerType    = cel.ObjectType("kubernetes.authorization.Authorizer")
	PathCheckType     = cel.ObjectType("kubernetes.authorization.PathCheck")
	GroupCheckType    = cel.ObjectType("kubernetes.authorization.GroupCheck")
	ResourceCheckType = cel.ObjectType("kubernetes.authorization.ResourceCheck")
	DecisionType      = cel.ObjectType("kubernetes.authorization.Decision")
)

// unreachable is the runtime binding of the authorization functions. No
// value of an authorization type can exist in a CRD validation rule (there
// is no authorizer variable), so a call can only be reached with error or
// unknown arguments, which it passes on.
func unreachable(args ...ref.Val) ref.Val {
	for _, a := range args {
		if types.IsUnknownOrError(a) {
			return a
		}
	}
	return types.NoSuchOverloadErr()
}

func authzMember(fn, id string, argTypes []*cel.Type, result *cel.Type) funcDecl {
	return funcDecl{fn, []cel.FunctionOpt{cel.MemberOverload(id, argTypes, result, cel.FunctionBinding(unreachable))}}
}

// authzOptions declares the functions of the kubernetes.authz library.
func authzOptions() []cel.EnvOption {
	s := cel.StringType
	return envOptions([]funcDecl{
		authzMember("path", "authorizer_path", []*cel.Type{AuthorizerType, s}, PathCheckType),
		authzMember("group", "authorizer_group", []*cel.Type{AuthorizerType, s}, GroupCheckType),
		authzMember("serviceAccount", "authorizer_serviceaccount", []*cel.Type{AuthorizerType, s, s}, AuthorizerType),
		authzMember("resource", "groupcheck_resource", []*cel.Type{GroupCheckType, s}, ResourceCheckType),
		authzMember("subresource", "resourcecheck_subresource", []*cel.Type{ResourceCheckType, s}, ResourceCheckType),
		authzMember("namespace", "resourcecheck_namespace", []*cel.Type{ResourceCheckType, s}, ResourceCheckType),
		authzMember("name", "resourcecheck_name", []*cel.Type{ResourceCheckType, s}, ResourceCheckType),
		{"check", []cel.FunctionOpt{
			cel.MemberOverload("pathcheck_check", []*cel.Type{PathCheckType, s}, DecisionType, cel.FunctionBinding(unreachable)),
			cel.MemberOverload("resourcecheck_check", []*cel.Type{ResourceCheckType, s}, DecisionType, cel.FunctionBinding(unreachable)),
		}},
		authzMember("errored", "decision_errored", []*cel.Type{DecisionType}, cel.BoolType),
		authzMember("error", "decision_error", []*cel.Type{DecisionType}, s),
		authzMember("allowed", "decision_allowed", []*cel.Type{DecisionType}, cel.BoolType),
		authzMember("reason", "decision_reason", []*cel.Type{DecisionType}, s),
	})
}

// authzSelectorsOptions declares the functions of the kubernetes.authzSelectors library.
func authzSelectorsOptions() []cel.EnvOption {
	s := cel.StringType
	return envOptions([]funcDecl{
		authzMember("fieldSelector", "authorizer_fieldselector", []*cel.Type{ResourceCheckType, s}, ResourceCheckType),
		authzMember("labelSelector", "authorizer_labelselector", []*cel.Type{ResourceCheckType, s}, ResourceCheckType),
	})
}
