-- A tiny harness for the headless plugin tests: checks with a summary and an
-- exit status, a watchdog, the demo workspace, and stand-ins for the
-- interactive parts (vim.ui.select, vim.notify).
local H = {}
local passes, failures = 0, 0

local function say(s)
  io.stdout:write(s .. '\n')
  io.stdout:flush()
end

-- check records one check.
function H.check(cond, what)
  if cond then passes = passes + 1 else failures = failures + 1 end
  say((cond and 'ok   ' or 'FAIL ') .. what)
end

-- skip says why a check does not run here.
function H.skip(what, why)
  say('SKIP ' .. what .. ': ' .. why)
end

local function finish(code)
  for _, client in ipairs(require('structls').compat.get_clients({ name = 'structls' })) do
    if vim.fn.has('nvim-0.11') == 1 then client:stop() else client.stop() end
  end
  vim.wait(2000, function() return #require('structls').compat.get_clients({ name = 'structls' }) == 0 end, 20)
  if code == 0 then vim.cmd('qa!') else vim.cmd('cquit ' .. code) end
end

-- run runs body under a watchdog and exits with 0 (passed), 1 (a check failed), 2 (Lua error) or 3 (timeout).
function H.run(body)
  local watchdog = vim.loop.new_timer()
  watchdog:start(60000, 0, vim.schedule_wrap(function() say('FAIL watchdog: the test took over 60 s'); finish(3) end))
  local v = vim.version()
  say(('nvim %d.%d.%d'):format(v.major, v.minor, v.patch))
  local ok, err = xpcall(body, debug.traceback)
  if not ok then
    say('ERROR ' .. tostring(err))
    finish(2)
    return
  end
  say(('%d passed, %d failed'):format(passes, failures))
  finish(failures == 0 and 0 or 1)
end

-- demo_workspace writes the demo workspace (STRUCTLS_DEMO, a txtar) plus
-- the test's extras to a temporary directory and returns its path.
function H.demo_workspace()
  local dir = vim.fn.resolve(vim.fn.tempname())
  local function write(name, lines)
    vim.fn.mkdir(vim.fn.fnamemodify(dir .. '/' .. name, ':h'), 'p')
    vim.fn.writefile(lines, dir .. '/' .. name)
  end
  local name, lines = nil, {}
  for _, line in ipairs(vim.fn.readfile(os.getenv('STRUCTLS_DEMO'))) do
    local header = line:match('^%-%- (.+) %-%-$')
    if header then
      if name then write(name, lines) end
      name, lines = header, {}
    elseif name then
      table.insert(lines, line)
    end
  end
  if name then write(name, lines) end
  for i = 1, 25 do
    write(('pages/p%02d.go'):format(i), { 'package pages', '', ('// PAGEMARK %02d'):format(i) })
  end
  write('xray/todo.star', {
    'matches = []',
    'for c in node.descendants_of_type("comment"):',
    '    if "TODO" in c.text:',
    '        matches.append({"line_number": c.start_point[0] + 1, "todo": c.text[:40]})',
    'return {"matches": matches, "value": None}',
  })
  write('sgconfig.yml', { 'ruleDirs:', '  - rules' })
  write('rules/no-println.yml', {
    'id: no-println', 'language: go', 'severity: warning',
    'message: print to stderr with fmt.Fprintln(os.Stderr, …)',
    'rule:', '  pattern:', '    context: func t() { fmt.Println($$$ARGS) }', '    selector: call_expression',
    'fix: fmt.Fprintln(os.Stderr, $$$ARGS)',
  })
  return dir
end

-- capture_log_messages records the server's window/logMessage warnings,
-- and whether it has asked for its configuration.
function H.capture_log_messages()
  local notes = { warnings = {}, configured = false }
  local log = vim.lsp.handlers['window/logMessage']
  vim.lsp.handlers['window/logMessage'] = function(err, params, ctx, config)
    if params and params.type <= 2 then
      table.insert(notes.warnings, params.message)
    end
    return log(err, params, ctx, config)
  end
  local configuration = vim.lsp.handlers['workspace/configuration']
  vim.lsp.handlers['workspace/configuration'] = function(err, params, ctx, config)
    local result = configuration(err, params, ctx, config)
    vim.defer_fn(function() notes.configured = true end, 200)
    return result
  end
  return notes
end

-- capture_progress records the next $/progress begin and the message of its end.
function H.capture_progress()
  local seen = { began = false, ended = nil }
  local handler = vim.lsp.handlers['$/progress']
  vim.lsp.handlers['$/progress'] = function(err, params, ctx, config)
    local value = params and params.value or {}
    if value.kind == 'begin' then
      seen.began = true
    elseif value.kind == 'end' and seen.began then
      seen.ended = value.message or ''
      vim.lsp.handlers['$/progress'] = handler
    end
    if handler then
      return handler(err, params, ctx, config)
    end
  end
  return seen
end

-- wait_client waits until the structls client is initialised and returns it.
function H.wait_client()
  local structls = require('structls')
  vim.wait(10000, function()
    local c = structls.client()
    return c ~= nil and c.server_capabilities ~= nil and c.server_capabilities.executeCommandProvider ~= nil
  end, 20)
  return structls.client()
end

local results_seen = 0
vim.api.nvim_create_autocmd('User', { pattern = 'StructlsResults', callback = function() results_seen = results_seen + 1 end })

-- command runs an Ex command and waits for its results (User StructlsResults); it returns the quickfix list.
function H.command(cmd)
  local before = results_seen
  vim.cmd(cmd)
  local done = vim.wait(20000, function() return results_seen > before end, 20)
  H.check(done, ':' .. cmd .. ' finished')
  return vim.fn.getqflist()
end

-- describe prints quickfix items as name:line:col.
function H.describe(items)
  local parts = {}
  for _, item in ipairs(items) do
    table.insert(parts, ('%s:%d:%d'):format(vim.fn.fnamemodify(vim.fn.bufname(item.bufnr), ':t'), item.lnum, item.col))
  end
  return '[' .. table.concat(parts, ' ') .. ']'
end

-- notifications runs fn, waits for a vim.notify message, and returns what was shown.
function H.notifications(fn)
  local shown = {}
  local notify = vim.notify
  vim.notify = function(msg) table.insert(shown, msg) end
  fn()
  vim.wait(10000, function() return #shown > 0 end, 20)
  vim.notify = notify
  return table.concat(shown, '\n')
end

-- select makes vim.ui.select answer with choose(items, opts).
function H.select(choose)
  vim.ui.select = function(items, opts, on_choice)
    local item = choose(items, opts)
    for i, it in ipairs(items) do
      if it == item then return on_choice(it, i) end
    end
    on_choice(nil, nil)
  end
end

-- code_action runs vim.lsp.buf.code_action() and picks the first action
-- whose title holds text; it returns that title (nil when none was offered).
function H.code_action(text)
  local picked
  local offered = false
  vim.ui.select = function(items, _, on_choice)
    offered = true
    for i, item in ipairs(items) do
      -- 0.7 passes {client_id, action}; 0.10+ {action = …, ctx = …}
      local action = item.action or item[2] or item
      if action.title and action.title:find(text, 1, true) then
        picked = action.title
        return on_choice(item, i)
      end
    end
    on_choice(nil, nil)
  end
  vim.lsp.buf.code_action()
  vim.wait(5000, function() return offered end, 20)
  return picked
end

return H
