-- Without the server: setup{} with a binary that does not exist says how to
-- install it, and a command says that no server is running; nothing throws.
-- Run as test_plugin.lua is.
local t = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')

t.run(function()
  vim.cmd('filetype on')
  local ws = t.demo_workspace()
  local shown = t.notifications(function()
    require('structls').setup({ cmd = { ws .. '/no-such-structls', 'serve' } })
    vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/main.go'))
  end)
  t.check(shown:find('is not executable', 1, true) and shown:find('`go install ./cmd/structls` in a checkout', 1, true),
    'a missing binary is reported with how to install it: ' .. shown)
  shown = t.notifications(function() vim.cmd('StructSearch fmt.Println($A)') end)
  t.check(shown:find('no structls server is running', 1, true) ~= nil, 'a command without a server says so: ' .. shown)
  shown = t.notifications(function() vim.cmd('StructReplace no arrow here') end)
  t.check(shown:find('usage: :StructReplace {pattern} => {rewrite}', 1, true) ~= nil, ':StructReplace without "=>" shows its usage: ' .. shown)
end)
