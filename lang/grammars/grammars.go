// Package grammars links every tree-sitter grammar of the catalogue into
// the binary and registers it with package lang. Import it (for its side
// effect) from commands and from the tests that need every language; it is
// the one expensive package to build (minutes of C, cold).
//
// Modules and versions: the imports below, pinned in go.mod (docs/design.md,
// Grammars: 32 upstream modules, 23 from go-sitter-forest where upstream has
// no usable Go module, and Swift's C in third_party/tree-sitter-swift).
// Kotlin is go-sitter-forest's build of the fwcd grammar, the one ast-grep
// parses Kotlin with (tree-sitter-grammars/tree-sitter-kotlin names its
// nodes differently: no simple_identifier, call_suffix, …), so that
// ast-grep rules mean the same here; TestKindsMatchAstGrep checks every
// language ast-grep has (docs/ast-grep-differences.md lists what differs).
package grammars

import (
	forest_astro "github.com/alexaandru/go-sitter-forest/astro"
	forest_clojure "github.com/alexaandru/go-sitter-forest/clojure"
	forest_cmake "github.com/alexaandru/go-sitter-forest/cmake"
	forest_dart "github.com/alexaandru/go-sitter-forest/dart"
	forest_diff "github.com/alexaandru/go-sitter-forest/diff"
	forest_dockerfile "github.com/alexaandru/go-sitter-forest/dockerfile"
	forest_elixir "github.com/alexaandru/go-sitter-forest/elixir"
	forest_erlang "github.com/alexaandru/go-sitter-forest/erlang"
	forest_graphql "github.com/alexaandru/go-sitter-forest/graphql"
	forest_groovy "github.com/alexaandru/go-sitter-forest/groovy"
	forest_ini "github.com/alexaandru/go-sitter-forest/ini"
	forest_just "github.com/alexaandru/go-sitter-forest/just"
	forest_kotlin "github.com/alexaandru/go-sitter-forest/kotlin"
	forest_nix "github.com/alexaandru/go-sitter-forest/nix"
	forest_objc "github.com/alexaandru/go-sitter-forest/objc"
	forest_odin "github.com/alexaandru/go-sitter-forest/odin"
	forest_perl "github.com/alexaandru/go-sitter-forest/perl"
	forest_powershell "github.com/alexaandru/go-sitter-forest/powershell"
	forest_proto "github.com/alexaandru/go-sitter-forest/proto"
	forest_solidity "github.com/alexaandru/go-sitter-forest/solidity"
	forest_sql "github.com/alexaandru/go-sitter-forest/sql"
	forest_tlaplus "github.com/alexaandru/go-sitter-forest/tlaplus"
	forest_vue "github.com/alexaandru/go-sitter-forest/vue"
	ts_r "github.com/r-lib/tree-sitter-r/bindings/go"
	ts_hcl "github.com/tree-sitter-grammars/tree-sitter-hcl/bindings/go"
	ts_lua "github.com/tree-sitter-grammars/tree-sitter-lua/bindings/go"
	ts_make "github.com/tree-sitter-grammars/tree-sitter-make/bindings/go"
	ts_markdown "github.com/tree-sitter-grammars/tree-sitter-markdown/bindings/go"
	ts_starlark "github.com/tree-sitter-grammars/tree-sitter-starlark/bindings/go"
	ts_svelte "github.com/tree-sitter-grammars/tree-sitter-svelte/bindings/go"
	ts_toml "github.com/tree-sitter-grammars/tree-sitter-toml/bindings/go"
	ts_xml "github.com/tree-sitter-grammars/tree-sitter-xml/bindings/go"
	ts_yaml "github.com/tree-sitter-grammars/tree-sitter-yaml/bindings/go"
	ts_zig "github.com/tree-sitter-grammars/tree-sitter-zig/bindings/go"
	ts_bash "github.com/tree-sitter/tree-sitter-bash/bindings/go"
	ts_csharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
	ts_c "github.com/tree-sitter/tree-sitter-c/bindings/go"
	ts_cpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	ts_css "github.com/tree-sitter/tree-sitter-css/bindings/go"
	ts_go "github.com/tree-sitter/tree-sitter-go/bindings/go"
	ts_haskell "github.com/tree-sitter/tree-sitter-haskell/bindings/go"
	ts_html "github.com/tree-sitter/tree-sitter-html/bindings/go"
	ts_java "github.com/tree-sitter/tree-sitter-java/bindings/go"
	ts_javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	ts_json "github.com/tree-sitter/tree-sitter-json/bindings/go"
	ts_julia "github.com/tree-sitter/tree-sitter-julia/bindings/go"
	ts_ocaml "github.com/tree-sitter/tree-sitter-ocaml/bindings/go"
	ts_php "github.com/tree-sitter/tree-sitter-php/bindings/go"
	ts_python "github.com/tree-sitter/tree-sitter-python/bindings/go"
	ts_regex "github.com/tree-sitter/tree-sitter-regex/bindings/go"
	ts_ruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	ts_rust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	ts_scala "github.com/tree-sitter/tree-sitter-scala/bindings/go"
	ts_typescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
	ts_verilog "github.com/tree-sitter/tree-sitter-verilog/bindings/go"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
	ts_swift "github.com/structls/structls/third_party/tree-sitter-swift" // our binding of its C: third_party/README.md
)

func init() {
	lang.Register("astro", forest_astro.GetLanguage)
	lang.Register("bash", ts_bash.Language)
	lang.Register("c", ts_c.Language)
	lang.Register("clojure", forest_clojure.GetLanguage)
	lang.Register("cmake", forest_cmake.GetLanguage)
	lang.Register("cpp", ts_cpp.Language)
	lang.Register("csharp", ts_csharp.Language)
	lang.Register("css", ts_css.Language)
	lang.Register("dart", forest_dart.GetLanguage)
	lang.Register("diff", forest_diff.GetLanguage)
	lang.Register("dockerfile", forest_dockerfile.GetLanguage)
	lang.Register("elixir", forest_elixir.GetLanguage)
	lang.Register("erlang", forest_erlang.GetLanguage)
	lang.Register("go", ts_go.Language)
	lang.Register("graphql", forest_graphql.GetLanguage)
	lang.Register("groovy", forest_groovy.GetLanguage)
	lang.Register("haskell", ts_haskell.Language)
	lang.Register("hcl", ts_hcl.Language)
	lang.Register("html", ts_html.Language)
	lang.Register("ini", forest_ini.GetLanguage)
	lang.Register("java", ts_java.Language)
	lang.Register("javascript", ts_javascript.Language)
	lang.Register("json", ts_json.Language)
	lang.Register("julia", ts_julia.Language)
	lang.Register("just", forest_just.GetLanguage)
	lang.Register("kotlin", forest_kotlin.GetLanguage)
	lang.Register("lua", ts_lua.Language)
	lang.Register("make", ts_make.Language)
	lang.Register("markdown", ts_markdown.Language)
	syntax.RegisterGuard(ts_markdown.Language(), markdownNesting)
	lang.Register("nix", forest_nix.GetLanguage)
	lang.Register("objc", forest_objc.GetLanguage)
	lang.Register("ocaml", ts_ocaml.LanguageOCaml)
	lang.Register("odin", forest_odin.GetLanguage)
	lang.Register("perl", forest_perl.GetLanguage)
	lang.Register("php", ts_php.LanguagePHPOnly)
	lang.Register("powershell", forest_powershell.GetLanguage)
	lang.Register("protobuf", forest_proto.GetLanguage)
	lang.Register("python", ts_python.Language)
	lang.Register("r", ts_r.Language)
	lang.Register("regex", ts_regex.Language)
	lang.Register("ruby", ts_ruby.Language)
	lang.Register("rust", ts_rust.Language)
	lang.Register("scala", ts_scala.Language)
	lang.Register("solidity", forest_solidity.GetLanguage)
	lang.Register("sql", forest_sql.GetLanguage)
	lang.Register("starlark", ts_starlark.Language)
	lang.Register("svelte", ts_svelte.Language)
	lang.Register("swift", ts_swift.Language)
	lang.Register("tlaplus", forest_tlaplus.GetLanguage)
	lang.Register("toml", ts_toml.Language)
	lang.Register("tsx", ts_typescript.LanguageTSX)
	lang.Register("typescript", ts_typescript.LanguageTypescript)
	lang.Register("verilog", ts_verilog.Language)
	lang.Register("vue", forest_vue.GetLanguage)
	lang.Register("xml", ts_xml.LanguageXML)
	lang.Register("yaml", ts_yaml.Language)
	lang.Register("zig", ts_zig.Language)
}
