package lang

// Expando characters: ast-grep's table where ast-grep has the language;
// otherwise a character the grammar accepts in identifiers, proven by
// grammars.TestEveryLanguageHasAGrammar. "_" (Erlang, SQL, TLA+, XML, Zig, and
// ast-grep's CSS and Nix) has a quirk: "$_" becomes "__", which is no
// metavariable, and code identifiers like "_FOO" read as metavariables.
const (
	micro   = 'µ'
	linearB = '\U00010000' // C and C++: any Unicode letter is an identifier character
)

// catalogue lists every language. The extension order matters only for
// extensions two languages claim (.bzl: starlark first; .h: C).
var catalogue = []*Language{
	{Name: "astro", Extensions: []string{"astro"}, Expando: micro},
	{Name: "bash", Aliases: []string{"sh", "zsh", "ksh", "bats", "shell"}, Extensions: []string{"bash", "bats", "cgi", "command", "env", "fcgi", "ksh", "sh", "tmux", "tool", "zsh"}},
	{Name: "c", Aliases: []string{"h"}, Extensions: []string{"c", "h"}, Expando: linearB},
	{Name: "cmake", Extensions: []string{"cmake"}, FileNames: []string{"CMakeLists.txt"}, Expando: micro},
	{Name: "cpp", Aliases: []string{"c++", "cc", "cxx", "hh", "hpp", "cu", "ino"}, Extensions: []string{"cc", "hpp", "cpp", "c++", "hh", "cxx", "cu", "ino", "hxx", "h++"}, Expando: linearB},
	{Name: "csharp", Aliases: []string{"c#", "cs"}, Extensions: []string{"cs"}, Expando: micro},
	{Name: "dart", Extensions: []string{"dart"}},
	{Name: "clojure", Aliases: []string{"clj", "cljc", "cljs", "clojurescript", "edn"}, Extensions: []string{"clj", "cljs", "cljc", "edn"}, Expando: micro},
	{Name: "css", Aliases: []string{"scss"}, Extensions: []string{"css", "scss"}, Expando: '_'},
	{Name: "diff", Aliases: []string{"patch"}, Extensions: []string{"diff", "patch"}, Expando: micro},
	{Name: "dockerfile", Aliases: []string{"docker", "containerfile"}, Extensions: []string{"dockerfile"}, FileNames: []string{"Dockerfile", "dockerfile", "Containerfile", "containerfile", "Dockerfile.", "dockerfile."}, Expando: micro},
	{Name: "elixir", Aliases: []string{"ex", "exs"}, Extensions: []string{"ex", "exs"}, Expando: micro},
	{Name: "erlang", Aliases: []string{"erl", "hrl"}, Extensions: []string{"erl", "hrl"}, Expando: '_'},
	{Name: "go", Aliases: []string{"golang"}, Extensions: []string{"go"}, Expando: micro},
	{Name: "graphql", Aliases: []string{"gql"}, Extensions: []string{"graphql", "gql"}, Expando: micro},
	{Name: "groovy", Aliases: []string{"gradle"}, Extensions: []string{"groovy", "gradle", "gvy", "gy", "gsh"}}, // "$" is valid in Groovy identifiers
	{Name: "haskell", Aliases: []string{"hs"}, Extensions: []string{"hs"}, Expando: micro},
	{Name: "hcl", Aliases: []string{"tf", "tfvars", "terraform"}, Extensions: []string{"hcl", "tf", "tfvars"}, Expando: micro},
	{Name: "html", Aliases: []string{"htm", "xhtml"}, Extensions: []string{"html", "htm", "xhtml"}, Expando: 'z'},
	{Name: "ini", Aliases: []string{"cfg", "conf", "config", "properties"}, Extensions: []string{"ini", "cfg", "conf", "properties"}, Expando: micro},
	{Name: "java", Extensions: []string{"java"}},
	{Name: "javascript", Aliases: []string{"js", "jsx", "mjs", "cjs"}, Extensions: []string{"cjs", "js", "mjs", "jsx"}},
	{Name: "json", Extensions: []string{"json"}},
	{Name: "just", Aliases: []string{"justfile"}, FileNames: []string{"Justfile", "justfile", ".justfile"}, Extensions: []string{"just"}, Expando: micro},
	{Name: "julia", Aliases: []string{"jl"}, Extensions: []string{"jl"}, Expando: micro},
	{Name: "kotlin", Aliases: []string{"kt", "kts", "ktm"}, Extensions: []string{"kt", "ktm", "kts"}, Expando: micro},
	{Name: "lua", Extensions: []string{"lua"}},
	{Name: "make", Aliases: []string{"makefile", "gnumake", "mk", "mak"}, Extensions: []string{"mk", "mak"}, FileNames: []string{"Makefile", "makefile", "GNUmakefile"}, Expando: micro},
	{Name: "markdown", Aliases: []string{"md", "mdx"}, Extensions: []string{"md", "markdown", "mdx"}},
	{Name: "nix", Extensions: []string{"nix"}, Expando: '_'},
	{Name: "objc", Aliases: []string{"obj-c", "objective-c", "m", "mm"}, Extensions: []string{"m", "mm"}, Expando: linearB},
	{Name: "ocaml", Aliases: []string{"ml"}, Extensions: []string{"ml", "mli"}, Expando: micro},
	{Name: "odin", Extensions: []string{"odin"}, Expando: micro},
	{Name: "perl", Aliases: []string{"pl", "pm"}, Extensions: []string{"pl", "pm"}, Expando: micro},
	{Name: "php", Extensions: []string{"php"}, Expando: micro},
	{Name: "powershell", Aliases: []string{"ps1", "psm1", "pwsh"}, Extensions: []string{"ps1", "psm1"}, Expando: micro},
	{Name: "protobuf", Aliases: []string{"proto"}, Extensions: []string{"proto"}, Expando: micro},
	{Name: "python", Aliases: []string{"py", "py3", "pyi"}, Extensions: []string{"py", "py3", "pyi"}, Expando: micro},
	{Name: "r", Extensions: []string{"r", "R"}, Expando: micro},
	{Name: "regex", Aliases: []string{"re"}, Expando: micro},
	{Name: "ruby", Aliases: []string{"rb", "rbw", "gemspec"}, Extensions: []string{"rb", "rbw", "gemspec"}, Expando: micro},
	{Name: "rust", Aliases: []string{"rs"}, Extensions: []string{"rs"}, Expando: micro},
	{Name: "scala", Aliases: []string{"sc", "sbt"}, Extensions: []string{"scala", "sc", "sbt"}},
	{Name: "solidity", Aliases: []string{"sol"}, Extensions: []string{"sol"}},
	{Name: "sql", Extensions: []string{"sql"}, Expando: '_'},
	{Name: "starlark", Aliases: []string{"star", "bzl", "bazel", "skylark"}, Extensions: []string{"star", "bzl"}, FileNames: []string{"BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel"}, Expando: micro},
	{Name: "svelte", Extensions: []string{"svelte"}, Expando: micro},
	{Name: "swift", Extensions: []string{"swift"}, Expando: micro},
	{Name: "toml", Extensions: []string{"toml"}, Expando: micro},
	{Name: "tlaplus", Aliases: []string{"tla", "tla+", "pluscal", "pcal"}, Extensions: []string{"tla"}, Expando: '_'},
	{Name: "tsx", Extensions: []string{"tsx"}},
	{Name: "typescript", Aliases: []string{"ts", "mts", "cts"}, Extensions: []string{"ts", "cts", "mts"}},
	{Name: "verilog", Aliases: []string{"systemverilog", "sv", "svh", "vh", "v"}, Extensions: []string{"v", "sv", "svh", "vh"}, Expando: micro},
	{Name: "vue", Extensions: []string{"vue"}, Expando: micro},
	{Name: "xml", Aliases: []string{"xsl", "xslt", "svg", "plist"}, Extensions: []string{"xml", "xsl", "xslt", "svg", "plist"}, Expando: '_'},
	{Name: "yaml", Aliases: []string{"yml"}, Extensions: []string{"yaml", "yml"}},
	{Name: "zig", Extensions: []string{"zig"}, Expando: '_'},
}
