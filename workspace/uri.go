package workspace

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// URIToPath returns the clean absolute file path named by a file:// URI.
// Other schemes (untitled:, git:, …) are an error, never a panic: editors send
// them for buffers that have no file behind them.
func URIToPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("%q is not a valid URI: %w", uri, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("%q is not a file:// URI", uri)
	}
	if u.Host != "" && u.Host != "localhost" {
		return "", fmt.Errorf("%q names a remote host; only local file:// URIs are supported", uri)
	}
	if !filepath.IsAbs(u.Path) {
		return "", fmt.Errorf("%q has no absolute path", uri)
	}
	return filepath.Clean(u.Path), nil
}

// PathToURI returns the file:// URI of an absolute path.
func PathToURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// IsFileURI reports whether s looks like a file:// URI rather than a path.
func IsFileURI(s string) bool { return strings.HasPrefix(s, "file://") }
