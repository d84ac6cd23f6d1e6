-- :checkhealth structls (Neovim 0.8+): the binary, its version, and the running client.
local M = {}

local health = vim.health or require('health')
local start = health.start or health.report_start
local ok = health.ok or health.report_ok
local warn = health.warn or health.report_warn
local report_error = health.error or health.report_error
local info = health.info or health.report_info

function M.check()
  local structls = require('structls')
  start('structls')
  if vim.fn.has('nvim-0.7') == 1 then
    ok('Neovim ' .. tostring(vim.version().major) .. '.' .. vim.version().minor .. ' (0.7 through 0.12 are supported)')
  else
    report_error('Neovim 0.7 or newer is needed')
  end
  local binary = structls.config.cmd[1]
  if vim.fn.executable(binary) == 1 then
    local version = vim.fn.system({ binary, 'version' })
    ok(('%s: %s'):format(vim.fn.exepath(binary), vim.trim(version)))
  else
    report_error(('%q is not executable'):format(binary), {
      'in a checkout of the structls repository: go install ./cmd/structls (Go 1.26 with cgo), with $(go env GOPATH)/bin on PATH',
      'or require("structls").setup{ cmd = { "/path/to/structls", "serve" } }',
    })
  end
  local client = structls.client()
  if client then
    local commands = client.server_capabilities and client.server_capabilities.executeCommandProvider
    ok(('client %d running on %s; commands: %s'):format(client.id, tostring(client.config.root_dir),
      table.concat(commands and commands.commands or {}, ', ')))
    info('position encoding: ' .. tostring(client.offset_encoding))
  else
    warn('no structls client is running', { 'call require("structls").setup{} (or vim.lsp.enable("structls") on 0.11+) and open a file' })
  end
end

return M
