package outline

// Markdown: every heading, ATX (# Title) or setext (underlined), named by
// its text.
var _ = define(func() {
	register([]string{"markdown"}, &Spec{Rules: []Rule{
		{Match: "**/atx_heading|setext_heading", Symbol: "heading", Name: "@heading_content"},
	}})
})
