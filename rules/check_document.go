package rules

import (
	"context"
	"fmt"

	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// DocumentCheck is what checking one version of an open document found.
type DocumentCheck struct {
	// Project is the project the document was checked against; nil when
	// its folder has none or it does not load, or when the document was
	// not checked (larger than the file size limit).
	Project *Project
	// Findings are the rules' findings in the document, in scan order.
	Findings []Finding
}

// CheckDocument checks one version of an open document against the rules
// of the workspace folder holding it (folderPath), whose project comes from
// projects (loaded there on first use), in the language the rules give the
// document's path (languageGlobs, then the extension; none: no findings). A
// document larger than maxFileSize is not checked, as searches skip it.
// The tree comes from trees, which reparses an open document's previous
// version incrementally.
func CheckDocument(ctx context.Context, projects *ProjectCache, folderPath string, doc *workspace.Document, maxFileSize int64, trees *syntax.Cache) (DocumentCheck, error) {
	var check DocumentCheck
	if int64(len(doc.Content)) > maxFileSize {
		return check, nil
	}
	if check.Project = projects.Load(folderPath).Project; check.Project == nil {
		return check, nil
	}
	set := check.Project.Rules
	l := set.Language(doc.Path)
	if l == nil || l.Grammar() == nil {
		return check, nil
	}
	tree, err := trees.Parse(ctx, l.Grammar(), doc.Content)
	if err != nil {
		return check, fmt.Errorf("checking %s: parsing it as %s: %w", doc.URI, l.Name, err)
	}
	if check.Findings, err = set.Check(ctx, doc.Path, l, tree); err != nil {
		return check, fmt.Errorf("checking %s: %w", doc.URI, err)
	}
	return check, nil
}
