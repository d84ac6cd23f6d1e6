-- The vim.lsp.enable('structls') path (Neovim 0.11+), from lsp/structls.lua,
-- without setup{}: the client starts for a Go file and :StructSearch works.
-- Prints SKIP on older versions. Run as test_plugin.lua is.
local t = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')

t.run(function()
  if vim.fn.has('nvim-0.11') == 0 then
    t.skip('vim.lsp.enable("structls")', 'needs Neovim 0.11')
    return
  end
  vim.cmd('filetype on')
  local ws = t.demo_workspace()
  vim.lsp.config('structls', { cmd = { os.getenv('STRUCTLS'), 'serve' } })
  vim.lsp.enable('structls')
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/main.go'))
  local client = t.wait_client()
  t.check(client ~= nil and client.config.root_dir == ws, 'vim.lsp.enable started structls on the folder of sgconfig.yml: ' .. tostring(client and client.config.root_dir))
  local qf = t.command('StructSearch fmt.Println($$$ARGS)')
  t.check(#qf == 2 and qf[2].lnum == 18, ':StructSearch through the enabled client ' .. t.describe(qf))
end)
