// Command treesize parses every file of a language under a directory into
// one parse cache with no budget to speak of, as a server that has searched
// everything holds them, and prints what the cache holds: trees, nodes, the
// bytes charged per node and in all, and the sources' share. bench/memory.sh
// runs it.
//
// usage: go run ./bench/treesize ROOT LANG
package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"unsafe"

	"github.com/structls/structls/lang"
	_ "github.com/structls/structls/lang/grammars"
	"github.com/structls/structls/syntax"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: treesize ROOT LANG")
		os.Exit(2)
	}
	root := os.Args[1]
	l, err := lang.Lookup(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var paths []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && lang.ForPath(p) == l {
			paths = append(paths, p)
		}
		return nil
	})
	cache := syntax.NewCache(1 << 42)
	work := make(chan string)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for p := range work {
				src, err := os.ReadFile(p)
				if err != nil {
					continue
				}
				if _, err := cache.Parse(context.Background(), l.Grammar(), src); err != nil {
					fmt.Fprintf(os.Stderr, "%s: %v\n", p, err)
					continue
				}
			}
		})
	}
	for _, p := range paths {
		work <- p
	}
	close(work)
	wg.Wait()
	st := cache.Stats()
	fmt.Printf("files\t%d\ntrees\t%d\nnodes\t%d\nnode-size\t%d\nsource-bytes\t%d\ncache-bytes\t%d\nbytes-per-node\t%.1f\n",
		len(paths), st.Trees, st.Nodes, unsafe.Sizeof(syntax.Node{}), st.SourceBytes, st.Bytes, float64(st.Bytes-st.SourceBytes)/float64(st.Nodes))
}
