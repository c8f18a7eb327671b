package crd

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/k8snames"
)

// validateConversion checks spec.conversion: the strategy, and for
// Webhook the client config and the review versions.
func validateConversion(conv *internalConversion, opts validationOptions, fldPath *crdschema.Path) crdschema.ErrorList {
	if conv == nil {
		return nil
	}
	errs := validateEnum(fldPath.Child("strategy"), string(conv.strategy), []string{string(crdschema.NoneConverter), string(crdschema.WebhookConverter)})
	if conv.strategy != crdschema.WebhookConverter {
		if conv.clientConfig != nil {
			errs = append(errs, crdschema.Forbidden(fldPath.Child("webhookClientConfig"), "should not be set when strategy is not set to Webhook"))
		}
		if len(conv.conversionReviewVersions) > 0 {
			errs = append(errs, crdschema.Forbidden(fldPath.Child("conversionReviewVersions"), "should not be set when strategy is not set to Webhook"))
		}
		return errs
	}
	ccPath := fldPath.Child("webhookClientConfig")
	if cc := conv.clientConfig; cc == nil {
		errs = append(errs, crdschema.Required(ccPath, "required when strategy is set to Webhook"))
	} else {
		switch {
		case (cc.URL == nil) == (cc.Service == nil):
			errs = append(errs, crdschema.Required(ccPath, "exactly one of url or service is required"))
		case cc.URL != nil:
			errs = append(errs, validateWebhookURL(ccPath.Child("url"), *cc.URL)...)
		default:
			var port int32
			if cc.Service.Port != nil {
				port = *cc.Service.Port
			}
			// The API server passes the service's name as the namespace
			// and its namespace as the name, so that a missing name is
			// reported on service.namespace and vice versa. Kept.
			errs = append(errs, validateWebhookService(ccPath.Child("service"), cc.Service.Name, cc.Service.Namespace, cc.Service.Path, port)...)
		}
		if len(cc.CABundle) > 0 && !opts.allowInvalidCABundle {
			errs = append(errs, validateCABundle(ccPath.Child("caBundle"), cc.CABundle)...)
		}
	}
	return append(errs, validateReviewVersions(conv.conversionReviewVersions, opts.requireRecognizedConversionReviewVersion, fldPath.Child("conversionReviewVersions"))...)
}

// acceptedReviewVersions are the ConversionReview versions the API server
// can send, in the order its messages list them.
var acceptedReviewVersions = []string{"v1", "v1beta1"}

func isAcceptedReviewVersion(v string) bool {
	return v == "v1" || v == "v1beta1"
}

func hasAcceptedReviewVersionOrNone(versions []string) bool {
	return len(versions) == 0 || slices.ContainsFunc(versions, isAcceptedReviewVersion)
}

func validateReviewVersions(versions []string, requireAccepted bool, fldPath *crdschema.Path) crdschema.ErrorList {
	if len(versions) == 0 {
		return crdschema.ErrorList{crdschema.Required(fldPath, "")}
	}
	var errs crdschema.ErrorList
	seen := make(map[string]bool, len(versions))
	for i, v := range versions {
		if seen[v] {
			errs = append(errs, crdschema.Invalid(fldPath.Index(i), v, "duplicate version"))
			continue
		}
		seen[v] = true
		for _, msg := range k8snames.IsDNS1035Label(v) {
			errs = append(errs, crdschema.Invalid(fldPath.Index(i), v, msg))
		}
	}
	if requireAccepted && !slices.ContainsFunc(versions, isAcceptedReviewVersion) {
		errs = append(errs, crdschema.Invalid(fldPath, versions, "must include at least one of "+strings.Join(acceptedReviewVersions, ", ")))
	}
	return errs
}

// validateWebhookURL requires an https URL with a host and without user
// information, fragment or query.
func validateWebhookURL(fldPath *crdschema.Path, raw string) crdschema.ErrorList {
	const form = "; desired format: https://host[/path]"
	u, err := url.Parse(raw)
	if err != nil {
		return crdschema.ErrorList{crdschema.Required(fldPath, "url must be a valid URL: "+err.Error()+form)}
	}
	var errs crdschema.ErrorList
	if u.Scheme != "https" {
		errs = append(errs, crdschema.Invalid(fldPath, u.Scheme, "'https' is the only allowed URL scheme"+form))
	}
	if u.Host == "" {
		errs = append(errs, crdschema.Invalid(fldPath, u.Host, "host must be specified"+form))
	}
	if u.User != nil {
		errs = append(errs, crdschema.Invalid(fldPath, u.User.String(), "user information is not permitted in the URL"))
	}
	if u.Fragment != "" {
		errs = append(errs, crdschema.Invalid(fldPath, u.Fragment, "fragments are not permitted in the URL"))
	}
	if u.RawQuery != "" {
		errs = append(errs, crdschema.Invalid(fldPath, u.RawQuery, "query parameters are not permitted in the URL"))
	}
	return errs
}

// validateWebhookService requires a name, a namespace, a valid port and a
// path of DNS-subdomain segments.
func validateWebhookService(fldPath *crdschema.Path, namespace, name string, path *string, port int32) crdschema.ErrorList {
	var errs crdschema.ErrorList
	if name == "" {
		errs = append(errs, crdschema.Required(fldPath.Child("name"), ""))
	}
	if namespace == "" {
		errs = append(errs, crdschema.Required(fldPath.Child("namespace"), ""))
	}
	if port < 1 || port > 65535 {
		errs = append(errs, crdschema.Invalid(fldPath.Child("port"), port, "port is not valid: must be between 1 and 65535, inclusive"))
	}
	if path == nil {
		return errs
	}
	p := *path
	if p == "" || p == "/" {
		return errs
	}
	if p == "//" {
		return append(errs, crdschema.Invalid(fldPath.Child("path"), p, "segment[0] may not be empty"))
	}
	if !strings.HasPrefix(p, "/") {
		errs = append(errs, crdschema.Invalid(fldPath.Child("path"), p, "must start with a '/'"))
	}
	rest := strings.TrimSuffix(p[1:], "/")
	for i, seg := range strings.Split(rest, "/") {
		if seg == "" {
			errs = append(errs, crdschema.Invalid(fldPath.Child("path"), p, fmt.Sprintf("segment[%d] may not be empty", i)))
			continue
		}
		for _, msg := range k8snames.IsDNS1123Subdomain(seg) {
			errs = append(errs, crdschema.Invalid(fldPath.Child("path"), p, fmt.Sprintf("segment[%d]: %v", i, msg)))
		}
	}
	return errs
}

// validateCABundle requires PEM data with at least one certificate that
// parses, as a TLS client configured with it does.
func validateCABundle(fldPath *crdschema.Path, ca []byte) crdschema.ErrorList {
	if x509.NewCertPool().AppendCertsFromPEM(ca) {
		return nil
	}
	return crdschema.ErrorList{crdschema.Invalid(fldPath, ca, "unable to load root certificates: "+caBundleProblem(ca).Error())}
}

// caBundleProblem explains why ca holds no usable certificate.
func caBundleProblem(ca []byte) error {
	for len(ca) > 0 {
		var block *pem.Block
		block, ca = pem.Decode(ca)
		if block == nil {
			return errors.New("unable to parse bytes as PEM block")
		}
		if block.Type != "CERTIFICATE" || len(block.Headers) != 0 {
			continue
		}
		if _, err := x509.ParseCertificate(block.Bytes); err != nil {
			return fmt.Errorf("failed to parse certificate: %w", err)
		}
	}
	return errors.New("no valid certificate authority data seen")
}
