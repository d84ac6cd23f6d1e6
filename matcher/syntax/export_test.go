package syntax

// KindsPresent exposes kindsPresent to the external tests.
var KindsPresent = kindsPresent
