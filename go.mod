module github.com/structls/structls

go 1.26.8

require (
	github.com/alexaandru/go-sitter-forest/astro v1.9.3
	github.com/alexaandru/go-sitter-forest/clojure v1.9.1
	github.com/alexaandru/go-sitter-forest/cmake v1.9.5
	github.com/alexaandru/go-sitter-forest/dart v1.9.4
	github.com/alexaandru/go-sitter-forest/diff v1.9.2
	github.com/alexaandru/go-sitter-forest/dockerfile v1.9.1
	github.com/alexaandru/go-sitter-forest/elixir v1.9.5
	github.com/alexaandru/go-sitter-forest/erlang v1.9.7
	github.com/alexaandru/go-sitter-forest/graphql v1.9.0
	github.com/alexaandru/go-sitter-forest/groovy v1.9.4
	github.com/alexaandru/go-sitter-forest/ini v1.9.1
	github.com/alexaandru/go-sitter-forest/just v1.9.6
	github.com/alexaandru/go-sitter-forest/kotlin v1.9.4
	github.com/alexaandru/go-sitter-forest/nix v1.9.4
	github.com/alexaandru/go-sitter-forest/objc v1.9.1
	github.com/alexaandru/go-sitter-forest/odin v1.9.2
	github.com/alexaandru/go-sitter-forest/perl v1.9.9
	github.com/alexaandru/go-sitter-forest/powershell v1.9.5
	github.com/alexaandru/go-sitter-forest/proto v1.9.1
	github.com/alexaandru/go-sitter-forest/solidity v1.9.3
	github.com/alexaandru/go-sitter-forest/sql v1.9.13
	github.com/alexaandru/go-sitter-forest/tlaplus v1.9.3
	github.com/alexaandru/go-sitter-forest/vue v1.9.0
	github.com/aymanbagabas/go-udiff v0.3.1
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/go-json-experiment/json v0.0.0-20260623181947-01eb4420fa68
	github.com/goccy/go-yaml v1.18.0
	github.com/google/go-cmp v0.7.0
	github.com/google/jsonschema-go v0.4.3
	github.com/mattn/go-pointer v0.0.1
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/r-lib/tree-sitter-r v1.3.0
	github.com/tree-sitter-grammars/tree-sitter-hcl v1.2.0
	github.com/tree-sitter-grammars/tree-sitter-lua v0.5.0
	github.com/tree-sitter-grammars/tree-sitter-make v1.1.1
	github.com/tree-sitter-grammars/tree-sitter-markdown v0.5.1
	github.com/tree-sitter-grammars/tree-sitter-starlark v1.3.0
	github.com/tree-sitter-grammars/tree-sitter-svelte v1.0.2
	github.com/tree-sitter-grammars/tree-sitter-toml v0.7.0
	github.com/tree-sitter-grammars/tree-sitter-xml v0.7.0
	github.com/tree-sitter-grammars/tree-sitter-yaml v0.7.2
	github.com/tree-sitter-grammars/tree-sitter-zig v1.1.2
	github.com/tree-sitter/tree-sitter-bash v0.25.1
	github.com/tree-sitter/tree-sitter-c v0.24.2
	github.com/tree-sitter/tree-sitter-c-sharp v0.23.5
	github.com/tree-sitter/tree-sitter-cpp v0.23.4
	github.com/tree-sitter/tree-sitter-css v0.25.0
	github.com/tree-sitter/tree-sitter-go v0.25.0
	github.com/tree-sitter/tree-sitter-haskell v0.23.1
	github.com/tree-sitter/tree-sitter-html v0.23.2
	github.com/tree-sitter/tree-sitter-java v0.23.5
	github.com/tree-sitter/tree-sitter-javascript v0.25.0
	github.com/tree-sitter/tree-sitter-json v0.24.8
	github.com/tree-sitter/tree-sitter-julia v0.23.1
	github.com/tree-sitter/tree-sitter-ocaml v0.25.0
	github.com/tree-sitter/tree-sitter-php v0.24.2
	github.com/tree-sitter/tree-sitter-python v0.25.0
	github.com/tree-sitter/tree-sitter-regex v0.25.0
	github.com/tree-sitter/tree-sitter-ruby v0.23.1
	github.com/tree-sitter/tree-sitter-rust v0.24.2
	github.com/tree-sitter/tree-sitter-scala v0.26.2
	github.com/tree-sitter/tree-sitter-typescript v0.23.2
	github.com/tree-sitter/tree-sitter-verilog v1.0.3
	go.lsp.dev/jsonrpc2 v1.0.1
	go.lsp.dev/protocol v1.0.1
	go.lsp.dev/uri v1.0.1
	go.starlark.net v0.0.0-20260908191801-89a6a09411d5
	go.uber.org/zap v1.28.0
	go.uber.org/zap/exp v0.3.0
	golang.org/x/sys v0.49.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	go.uber.org/multierr v1.11.0 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)
