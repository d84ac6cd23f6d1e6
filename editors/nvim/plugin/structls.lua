-- structls: the :Struct* commands, available as soon as the plugin is on
-- the runtimepath. The server starts with require('structls').setup{} (any
-- version) or vim.lsp.enable('structls') (0.11+, from lsp/structls.lua).
if vim.g.loaded_structls then
  return
end
vim.g.loaded_structls = true
require('structls.commands').create()
