package workspace

import "strings"

// TempMarker is what the names of structls's own temporary files hold: an
// apply writes each file's new text to ".NAME.structls-RANDOM" beside it
// before renaming it into place (package rewrite). A killed apply can leave
// such files behind until the next run cleans them up, so no walk ever
// lists them: a search must never report hits in them.
const TempMarker = ".structls-"

// IsTempName reports whether the base name is one of structls's temporary
// files (".*.structls-*").
func IsTempName(base string) bool {
	return strings.HasPrefix(base, ".") && strings.Contains(base[1:], TempMarker)
}
