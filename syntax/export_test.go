package syntax

// KindsPresent exposes kindsPresent to the external tests.
var KindsPresent = kindsPresent

// ForestOf exposes forestOf to the external tests.
var ForestOf = forestOf

// SetCursorWalk exposes setCursorWalk to the external tests.
var SetCursorWalk = setCursorWalk
