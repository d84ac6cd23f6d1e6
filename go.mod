module github.com/structls/structls

go 1.26.8

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/boyter/gocodewalker v1.5.1
	github.com/go-json-experiment/json v0.0.0-20260623181947-01eb4420fa68
	github.com/google/go-cmp v0.7.0
	go.lsp.dev/jsonrpc2 v1.0.1
	go.lsp.dev/protocol v1.0.1
	go.lsp.dev/uri v1.0.1
	go.uber.org/zap v1.28.0
	go.uber.org/zap/exp v0.3.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/danwakefield/fnmatch v0.0.0-20160403171240-cbb64ac3d964 // indirect
	go.uber.org/multierr v1.11.0 // indirect
)
