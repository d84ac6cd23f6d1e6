package rules

import (
	"errors"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// A workspace folder's ast-grep project is the sgconfig.yml found upward
// from the folder, with its rules and utils. LoadFolderProject loads it
// (the scan command, once per request); a ProjectCache keeps each folder's
// until a project file changes (the live diagnostics of open documents,
// which check on every keystroke).

// FolderProject is the outcome of loading one folder's project.
type FolderProject struct {
	// Project is nil when the folder has no sgconfig.yml or it does not load.
	Project *Project
	// Err is why the project does not load.
	Err error
	// Sources are the files read: the config, rules and utils (what is
	// known of them when it did not load). A change to any of them (or to
	// a new YAML file, IsProjectFile) may change the project.
	Sources []string
}

// LoadFolderProject finds and loads the project of a folder.
func LoadFolderProject(folderPath string) *FolderProject {
	configPath, err := FindConfig(folderPath)
	if err != nil || configPath == "" {
		return &FolderProject{Err: err}
	}
	project, err := LoadProject(configPath)
	if err != nil {
		sources := []string{configPath}
		var ruleErr *Error
		if errors.As(err, &ruleErr) && filepath.IsAbs(ruleErr.File) {
			sources = append(sources, ruleErr.File)
		}
		return &FolderProject{Err: err, Sources: sources}
	}
	return &FolderProject{Project: project, Sources: project.Sources}
}

// IsProjectFile reports whether a changed file (a path or a URI) may be
// part of an ast-grep project: sgconfig.yml, a rule or a util file (all
// YAML).
func IsProjectFile(uriOrPath string) bool {
	ext := strings.ToLower(path.Ext(uriOrPath))
	return ext == ".yml" || ext == ".yaml"
}

// ProjectCache keeps the loaded project of each folder, loading it on
// first use, until Invalidate, which a change to a project file calls for
// (IsProjectFile). Each invalidation starts a new generation: what was
// computed from an older one is stale.
type ProjectCache struct {
	onLoad func(folderPath string, loaded *FolderProject)

	mu         sync.Mutex
	generation uint64
	folders    map[string]*FolderProject // by folder path; absent: not loaded since the last invalidation
}

// NewProjectCache returns an empty cache. onLoad, when not nil, is called
// with each project the cache keeps, by the Load that loaded it, before
// Load returns: the first load since the last invalidation, whose load
// error and warnings are news to the user.
func NewProjectCache(onLoad func(folderPath string, loaded *FolderProject)) *ProjectCache {
	return &ProjectCache{onLoad: onLoad, folders: map[string]*FolderProject{}}
}

// Generation is the generation what is computed now belongs to.
func (c *ProjectCache) Generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.generation
}

// Invalidate drops every loaded project (each loads again on next use) and
// starts a new generation.
func (c *ProjectCache) Invalidate() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.generation++
	clear(c.folders)
}

// Load returns the folder's project, loading it unless it is kept. A load
// that an invalidation overtook (what it read may be out of date), or that
// another load of the folder beat, is returned but not kept.
func (c *ProjectCache) Load(folderPath string) *FolderProject {
	c.mu.Lock()
	kept, generation := c.folders[folderPath], c.generation
	c.mu.Unlock()
	if kept != nil {
		return kept
	}
	loaded := LoadFolderProject(folderPath)
	c.mu.Lock()
	keep := c.generation == generation && c.folders[folderPath] == nil
	if keep {
		c.folders[folderPath] = loaded
	}
	c.mu.Unlock()
	if keep && c.onLoad != nil {
		c.onLoad(folderPath, loaded)
	}
	return loaded
}

// Sources returns the files of every kept project, sorted.
func (c *ProjectCache) Sources() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, loaded := range c.folders {
		out = append(out, loaded.Sources...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
