package printer

// HumanDuration is exported for the external tests.
var HumanDuration = humanDuration
