package cellib

// CheckQuantity returns the error resource.ParseQuantity gives for s (its
// texts: "quantities must match the regular expression ...", "unable to
// parse numeric part of quantity", "unable to parse quantity's suffix"),
// or nil if s is a quantity.
func CheckQuantity(s string) error {
	_, err := parseQuantity(s)
	return err
}
