package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/structls/structls/rules"
)

// testCmd is `structls test`: the rule tests of the project's testConfigs,
// as `ast-grep test` (valid cases must not match, invalid ones must, and
// their first match must equal its snapshot). It prints PASS/FAIL per rule
// with one mark per case and exits 1 when a case failed, 2 on an error.
// It runs the rules engine directly: the tests read no workspace.
func testCmd(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("test", stdout, stderr)
	config := fs.String("c", "", "the sgconfig.yml (default: found upward from the current directory)")
	filter := fs.String("f", "", "run only the tests of the rules whose id this regular expression matches")
	fs.StringVar(filter, "filter", "", "same as -f")
	update := fs.Bool("update-all", false, "write every snapshot from the current output")
	fs.BoolVar(update, "U", false, "same as --update-all")
	skip := fs.Bool("skip-snapshot-tests", false, "check matches only, not snapshots")
	if _, err := parseInterspersed(fs, args); err != nil {
		return exitError, err
	}
	path := *config
	if path == "" {
		found, err := rules.FindConfig(".")
		if err != nil {
			return exitError, err
		}
		if found == "" {
			return exitError, fmt.Errorf("no sgconfig.yml found here or above: run in a project, or pass -c sgconfig.yml")
		}
		path = found
	}
	project, err := rules.LoadProject(path)
	if err != nil {
		return exitError, err
	}
	warn := func(w string) { fmt.Fprintf(stderr, "structls: warning: %s\n", w) }
	for _, w := range project.Warnings {
		warn(w)
	}
	for _, w := range project.Rules.Warnings {
		warn(w)
	}
	results, err := project.RunTests(context.Background(), rules.TestOptions{Filter: *filter, UpdateAll: *update, SkipSnapshots: *skip, Warn: warn})
	if err != nil {
		return exitError, err
	}
	failed := 0
	for _, r := range results {
		status := "PASS"
		if !r.Passed() {
			status = "FAIL"
			failed++
		}
		fmt.Fprintf(stdout, "%s %s  %s\n", status, r.ID, r.Marks)
		for _, d := range r.Details {
			fmt.Fprintf(stdout, "  %s\n", d)
		}
	}
	fmt.Fprintf(stdout, "%d rules tested, %d failed (%s)\n", len(results), failed, filepath.Dir(project.ConfigFile))
	if failed > 0 {
		return exitNotFound, nil
	}
	return exitFound, nil
}
