-- The structls server for vim.lsp.enable('structls') (Neovim 0.11+). The
-- plugin's setup{} does the same on every version; use one or the other.
return {
  cmd = { 'structls', 'serve' },
  root_markers = { 'sgconfig.yml', 'sgconfig.yaml', '.git', 'go.mod' },
  -- the plugin previews every rewrite itself, so the server need not ask again
  settings = { structls = { confirmEdits = 'never' } },
  init_options = { structls = { confirmEdits = 'never' } },
}
