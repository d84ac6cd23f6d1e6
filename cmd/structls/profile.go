package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startCPUProfile writes a CPU profile of the whole run to the file
// STRUCTLS_CPUPROFILE names (as gopls's -profile.cpu does), for a person
// finding where a slow command spends its time with `go tool pprof`. It
// returns the function that ends the profile; without the variable,
// nothing is profiled.
func startCPUProfile() (stop func()) {
	path := os.Getenv("STRUCTLS_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "structls: STRUCTLS_CPUPROFILE: %v; running without a profile\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
