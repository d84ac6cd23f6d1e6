-- structls for Neovim 0.7 through 0.12: starts `structls serve` for file
-- buffers and sends structls commands to it. The user commands are in
-- structls.commands; :checkhealth structls is structls.health.
local M = {}

-- The defaults; setup{} merges the user's options over them.
M.defaults = {
  -- the server command; `structls` must be on PATH unless cmd[1] is a path
  cmd = { 'structls', 'serve' },
  -- the workspace folder is the nearest directory holding one of these, else the current directory
  root_markers = { 'sgconfig.yml', 'sgconfig.yaml', '.git', 'go.mod' },
  -- the server's settings (section "structls"); the plugin previews every
  -- rewrite itself, so the server need not ask again
  settings = { structls = { confirmEdits = 'never' } },
  -- matches per page (astGrep) / files per page (search); :StructMore fetches the next page
  limit = 200,
}

M.config = vim.deepcopy(M.defaults)

-- compat holds the few calls whose shape changed between 0.7 and 0.12.
local compat = {}
M.compat = compat

-- get_clients lists the running clients (get_active_clients before 0.10).
function compat.get_clients(filter)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients(filter)
  end
  local out = {}
  for _, client in pairs(vim.lsp.get_active_clients()) do
    if not filter or not filter.name or client.name == filter.name then
      table.insert(out, client)
    end
  end
  return out
end

-- request sends an async request (method syntax from 0.11, where the dot form is deprecated).
function compat.request(client, method, params, handler, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

-- root finds the workspace folder of a buffer from the markers.
function compat.root(bufnr, markers)
  if vim.fs and vim.fs.root then
    return vim.fs.root(bufnr, markers) or vim.fn.getcwd()
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  for _, marker in ipairs(markers) do
    local found = vim.fn.finddir(marker, dir .. ';')
    if found == '' then
      found = vim.fn.findfile(marker, dir .. ';')
    end
    if found ~= '' then
      return vim.fn.fnamemodify(found, ':p:h'):gsub('/%.git$', '')
    end
  end
  return vim.fn.getcwd()
end

-- as_object makes an empty table encode as a JSON object: Neovim encodes
-- an empty Lua table as an array, which the server refuses as a section.
local function as_object(t)
  if type(t) == 'table' and next(t) == nil then
    return vim.empty_dict()
  end
  return t
end

-- server_settings is the settings table with the sections made objects;
-- the values inside (exclude = {} is an empty array) are left as they are.
local function server_settings(settings)
  local out = {}
  for name, section in pairs(settings or {}) do
    out[name] = as_object(section)
  end
  return as_object(out)
end

-- client_config is the vim.lsp config for a buffer's workspace folder.
function M.client_config(bufnr)
  local root = compat.root(bufnr, M.config.root_markers)
  local settings = server_settings(M.config.settings)
  return {
    name = 'structls',
    cmd = M.config.cmd,
    root_dir = root,
    settings = settings,
    init_options = settings,
  }
end

-- same_folder reuses a structls client started for the same root directory
-- (0.10's default compares the root with the workspace folders' names).
local function same_folder(client, config)
  return client.name == config.name and client.config.root_dir == config.root_dir
end

-- started maps a root directory to its client id (Neovim 0.7, which has no vim.lsp.start).
local started = {}

-- attach starts (or reuses) the client for a file buffer's folder and attaches the buffer.
function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].buftype ~= '' or vim.api.nvim_buf_get_name(bufnr) == '' then
    return nil
  end
  if vim.fn.executable(M.config.cmd[1]) ~= 1 then
    M.warn_missing()
    return nil
  end
  local config = M.client_config(bufnr)
  if vim.lsp.start then
    return vim.lsp.start(config, { bufnr = bufnr, reuse_client = same_folder })
  end
  local id = started[config.root_dir]
  if not id or vim.lsp.client_is_stopped(id) then
    id = vim.lsp.start_client(config)
    started[config.root_dir] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

local warned = false
-- warn_missing says once how to install the server.
function M.warn_missing()
  if not warned then
    warned = true
    vim.notify(('structls: %q is not executable. Install it by running `go install ./cmd/structls` in a checkout of '
      .. 'the structls repository (Go 1.26 with cgo; $(go env GOPATH)/bin on PATH), or pass cmd = { "/path/to/structls", "serve" } to setup{}'):format(M.config.cmd[1]), vim.log.levels.ERROR)
  end
end

-- setup merges opts into the configuration and attaches every file buffer, now and as they open.
function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  local group = vim.api.nvim_create_augroup('structls', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype ~= '' then
      M.attach(buf)
    end
  end
end

-- client returns the structls client for the current buffer, else any structls client.
function M.client()
  local clients = compat.get_clients({ name = 'structls' })
  local buf = vim.api.nvim_get_current_buf()
  for _, client in ipairs(clients) do
    if client.attached_buffers and client.attached_buffers[buf] then
      return client
    end
  end
  return clients[1]
end

-- last_request remembers the request in flight, for :StructCancel.
local last_request = nil

-- execute runs a structls command with one argument object and calls
-- on_result(result, client); a failure is shown with the server's own message.
function M.execute(command, arg, on_result)
  local client = M.client()
  if not client then
    vim.notify('structls: no structls server is running: call require("structls").setup{} (or vim.lsp.enable("structls") on 0.11+) and open a file',
      vim.log.levels.ERROR)
    return
  end
  local params = { command = command, arguments = { arg } }
  local ok, id = compat.request(client, 'workspace/executeCommand', params, function(err, result)
    last_request = nil
    if err then
      local cancelled = err.code == -32800
      vim.notify('structls: ' .. (cancelled and 'cancelled' or tostring(err.message)), cancelled and vim.log.levels.INFO or vim.log.levels.ERROR)
      return
    end
    on_result(result, client)
  end, vim.api.nvim_get_current_buf())
  if ok then
    last_request = { client = client, id = id }
  end
end

-- cancel cancels the structls request in flight, if any. Neovim drops the
-- reply to a cancelled request (its handler never runs), so the note is
-- given here.
function M.cancel()
  if not last_request then
    vim.notify('structls: no command is running', vim.log.levels.INFO)
    return
  end
  local client, id = last_request.client, last_request.id
  last_request = nil
  if vim.fn.has('nvim-0.11') == 1 then
    client:cancel_request(id)
  else
    client.cancel_request(id)
  end
  vim.notify('structls: cancelled', vim.log.levels.INFO)
end

-- has_command says whether the running server offers a command (rules and outline came later).
function M.has_command(name)
  local client = M.client()
  local provider = client and client.server_capabilities and client.server_capabilities.executeCommandProvider
  return provider ~= nil and vim.tbl_contains(provider.commands or {}, name)
end

return M
