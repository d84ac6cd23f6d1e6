package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Folder is one workspace folder: the only places the server reads files.
type Folder struct {
	Name string
	URI  string
	Path string // clean absolute path, as the client named it
	Real string // Path with every symlink evaluated: the confinement root
}

// NewFolder makes a Folder from a file:// URI (or an absolute path).
func NewFolder(uriOrPath, name string) (Folder, error) {
	path := uriOrPath
	if IsFileURI(uriOrPath) {
		p, err := URIToPath(uriOrPath)
		if err != nil {
			return Folder{}, fmt.Errorf("workspace folder: %w", err)
		}
		path = p
	}
	if !filepath.IsAbs(path) {
		return Folder{}, fmt.Errorf("workspace folder %q is not an absolute path", uriOrPath)
	}
	path = filepath.Clean(path)
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return Folder{}, fmt.Errorf("workspace folder %s cannot be opened: %w", path, err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return Folder{}, fmt.Errorf("workspace folder %s cannot be opened: %w", path, err)
	}
	if !info.IsDir() {
		return Folder{}, fmt.Errorf("workspace folder %s is not a directory", path)
	}
	if name == "" {
		name = filepath.Base(path)
	}
	return Folder{Name: name, URI: PathToURI(path), Path: path, Real: real}, nil
}

// Rel returns the slash-separated path of real (a symlink-free absolute path
// inside the folder) relative to the folder, "." for the folder itself.
func (f Folder) Rel(real string) string {
	if real == f.Real {
		return "."
	}
	if rest, ok := strings.CutPrefix(real, f.Real+string(filepath.Separator)); ok {
		return filepath.ToSlash(rest)
	}
	rel, err := filepath.Rel(f.Real, real)
	if err != nil {
		return filepath.ToSlash(real)
	}
	return filepath.ToSlash(rel)
}

// within reports whether path is root or lies below it (both clean and absolute).
func within(root, path string) bool {
	if path == root {
		return true
	}
	if root == string(filepath.Separator) {
		return strings.HasPrefix(path, root)
	}
	return strings.HasPrefix(path, root+string(filepath.Separator))
}

// folderOf returns the index of the folder containing the lexical path
// (compared against both its Path and its Real), preferring the deepest.
func folderOf(folders []Folder, path string) (int, string) {
	best, bestRoot := -1, ""
	for i, f := range folders {
		for _, root := range []string{f.Path, f.Real} {
			if within(root, path) && len(root) > len(bestRoot) {
				best, bestRoot = i, root
			}
		}
	}
	return best, bestRoot
}

// folderReal returns the index of the folder whose Real root contains the
// symlink-free path real, preferring the deepest; -1 if none does.
func folderReal(folders []Folder, real string) int {
	best, bestLen := -1, -1
	for i, f := range folders {
		if within(f.Real, real) && len(f.Real) > bestLen {
			best, bestLen = i, len(f.Real)
		}
	}
	return best
}
