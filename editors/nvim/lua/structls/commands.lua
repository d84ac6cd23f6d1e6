-- The user commands: each sends one structls command and puts the result in
-- the quickfix list (every match carries uri and range, so it is a location
-- as it is). :StructReplace shows the rewrite as a diff in a scratch buffer
-- and asks before the server applies it.
local structls = require('structls')
local M = {}

-- results fires `User StructlsResults` after the quickfix list changed (for
-- statuslines, and for the tests).
local function results_ready()
  vim.cmd('doautocmd <nomodeline> User StructlsResults')
end

-- set_quickfix replaces (or with append, extends) the quickfix list and opens it.
local function set_quickfix(title, items, append)
  vim.fn.setqflist({}, append and 'a' or ' ', { title = title, items = items })
  vim.cmd('botright copen')
  vim.cmd('wincmd p')
  results_ready()
end

-- location_items turns matches ({uri, range, …}) into quickfix items whose text is text_of(match).
local function location_items(matches, client, text_of)
  local items = vim.lsp.util.locations_to_items(matches, client.offset_encoding)
  for i, item in ipairs(items) do
    local text = text_of and text_of(matches[i]) or nil
    if text then
      item.text = text
    end
  end
  return items
end

-- plural counts n things: plural(1, 'file') is "1 file", plural(2, 'file') "2 files".
local function plural(n, word)
  return ('%d %s%s'):format(n, word, n == 1 and '' or 's')
end

local function first_line(text)
  return (text:gsub('^%s+', ''):match('^[^\n]*'))
end

-- notes shows the server's warnings and per-file errors. Next to results
-- they take one line (no hit-enter prompt; :messages keeps the whole text
-- of a lone note); when nothing was found they are shown whole, as they
-- usually say why.
local function notes(result, found)
  local lines = {}
  for _, w in ipairs(result.warnings or {}) do
    table.insert(lines, w)
  end
  for _, e in ipairs(result.parseErrors or {}) do
    table.insert(lines, (e.path or '') .. ': ' .. e.message)
  end
  for _, e in ipairs(result.evaluationErrors or {}) do
    table.insert(lines, e.path .. ': ' .. e.errorType .. ': ' .. e.errorMessage)
  end
  if #lines == 0 then
    return
  end
  if not found then
    vim.notify('structls: ' .. table.concat(lines, '\n'), vim.log.levels.WARN)
    return
  end
  local more = #lines > 1 and (' (+%d more)'):format(#lines - 1) or ''
  local width = math.max(20, vim.o.columns - 30 - #more) -- room for the ruler and showcmd
  local line = lines[1]:gsub('\n', ' ')
  if vim.fn.strchars(line) > width then
    line = vim.fn.strcharpart(line, 0, width - 1) .. '…'
  end
  vim.notify('structls: ' .. line .. more, vim.log.levels.INFO)
end

-- more is how :StructMore fetches the next page of the last search, if there is one.
local more = nil

-- page runs one page of a paged command and fills (or extends) the quickfix list.
local function page(command, arg, title, text_of, append)
  structls.execute(command, arg, function(result, client)
    local count = command == 'structls.astGrep' and ('%d match%s in %s'):format(result.matchCount, result.matchCount == 1 and '' or 'es', plural(result.fileCount, 'file'))
      or ('%s match'):format(plural(result.totalFiles or result.fileCount, 'file'))
    more = nil
    if result.nextSkip then
      local next_arg = vim.deepcopy(arg)
      next_arg.skip = result.nextSkip
      more = function()
        page(command, next_arg, title, text_of, true)
      end
      count = count .. ', more with :StructMore'
    end
    set_quickfix(('structls %s (%s)'):format(title, count), location_items(result.matches, client, text_of), append)
    notes(result, #result.matches > 0)
  end)
end

-- search runs a structural search (structls.astGrep) over the workspace.
function M.search(pattern)
  page('structls.astGrep', { pattern = pattern, limit = structls.config.limit }, pattern, function(m)
    return first_line(m.text)
  end)
end

-- grep runs a regex search (structls.search) over the workspace.
function M.grep(regex)
  page('structls.search', { pattern = regex, limit = structls.config.limit }, '/' .. regex .. '/', function(m)
    return m.lineText
  end)
end

-- next_page extends the quickfix list with the next page of the last search.
function M.next_page()
  if not more then
    vim.notify('structls: the last search has no more results', vim.log.levels.INFO)
    return
  end
  more()
end

-- parse_replace splits "PATTERN => REWRITE".
function M.parse_replace(args)
  local pattern, rewrite = args:match('^(.-)%s+=>%s?(.*)$')
  if not pattern or pattern == '' then
    return nil
  end
  return pattern, rewrite
end

-- show_diff puts the preview text (replacements, then a unified diff) in a scratch buffer.
local function show_diff(text)
  vim.cmd('botright new')
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(text, '\n', { plain = true }))
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = 'diff'
  pcall(vim.api.nvim_buf_set_name, buf, 'structls://preview')
  return buf
end

-- The answers :StructReplace offers once the diff is shown.
M.choices = { apply = 'Apply', keep = 'Keep as a code action', discard = 'Discard' }

-- replace previews a structural rewrite, shows its diff and asks what to do with it.
function M.replace(args)
  local pattern, rewrite = M.parse_replace(args)
  if not pattern then
    vim.notify('structls: usage: :StructReplace {pattern} => {rewrite}   e.g. :StructReplace fmt.Println($$$A) => log.Println($$$A)',
      vim.log.levels.ERROR)
    return
  end
  structls.execute('structls.astEdit', { ops = { { pattern = pattern, rewrite = rewrite } }, format = 'text' }, function(preview)
    if preview.id == nil or preview.id == '' then
      notes(preview, false)
      vim.notify('structls: nothing to replace: ' .. pattern .. ' matches nothing', vim.log.levels.INFO)
      results_ready()
      return
    end
    local origin = vim.api.nvim_get_current_win()
    local diff = show_diff(preview.text or '')
    notes(preview, true)
    vim.cmd('redraw') -- or 0.7's prompt (inputlist) covers the screen before the diff is drawn
    local prompt = ('Apply %s in %s?'):format(plural(preview.totalReplacements, 'replacement'), plural(preview.filesTouched, 'file'))
    vim.ui.select({ M.choices.apply, M.choices.keep, M.choices.discard }, { prompt = prompt }, function(choice)
      if vim.api.nvim_buf_is_valid(diff) then
        vim.api.nvim_buf_delete(diff, { force = true })
      end
      if vim.api.nvim_win_is_valid(origin) then
        vim.api.nvim_set_current_win(origin)
      end
      if choice == M.choices.apply then
        structls.execute('structls.applyEdit', { id = preview.id }, function(result)
          if result.applied then
            vim.notify(('structls: applied %s in %s (unsaved: :wa writes them, u undoes)'):format(
              plural(result.totalReplacements or 0, 'replacement'), plural(result.filesChanged or 0, 'file')))
          else
            vim.notify('structls: not applied: ' .. tostring(result.failureReason), vim.log.levels.WARN)
          end
          results_ready()
        end)
      elseif choice == M.choices.keep then
        vim.notify('structls: the rewrite is kept: apply it with vim.lsp.buf.code_action() in a file it touches')
        results_ready()
      else
        structls.execute('structls.discardEdit', { id = preview.id }, results_ready)
      end
    end)
  end)
end

-- xray runs an X-Ray search: driver regex, and an evaluator from a .star file (optional).
function M.xray(fargs)
  local driver, star = fargs[1], fargs[2]
  local arg = { driver = driver }
  if star then
    local ok, lines = pcall(vim.fn.readfile, star)
    if not ok then
      vim.notify('structls: cannot read the evaluator ' .. star .. ': give the path of a .star file', vim.log.levels.ERROR)
      return
    end
    arg.evaluator = table.concat(lines, '\n')
  end
  structls.execute('structls.xray', arg, function(result)
    local items = {}
    for _, m in ipairs(result.matches) do
      local fields = {}
      for k, v in pairs(m.fields or {}) do
        table.insert(fields, k .. '=' .. vim.fn.json_encode(v))
      end
      table.sort(fields)
      local text = vim.trim(m.lineContent) .. (#fields > 0 and ('  [' .. table.concat(fields, ' ') .. ']') or '')
      table.insert(items, { filename = vim.uri_to_fname(m.uri), lnum = m.lineNumber, col = 1, text = text })
    end
    set_quickfix(('structls X-Ray /%s/ (%d matches, %d of %d candidates evaluated)'):format(
      driver, #items, result.filesEvaluated, result.candidates), items)
    notes(result, #items > 0)
  end)
end

-- outline lists the symbols of the current file (or of path) in the quickfix list.
function M.outline(path)
  local file = path ~= '' and vim.fn.fnamemodify(path, ':p') or vim.api.nvim_buf_get_name(0)
  if file == '' then
    vim.notify('structls: :StructOutline needs a file: open one, or give its path', vim.log.levels.ERROR)
    return
  end
  local target = vim.fn.fnamemodify(file, ':~:.')
  -- a file:// URI: a path relative to the current directory may not be relative to the workspace folder
  structls.execute('structls.outline', { paths = { vim.uri_from_fname(file) } }, function(result, client)
    local items = {}
    local function add(uri, item, depth)
      local start = item.selectionRange or item.range
      local loc = location_items({ { uri = uri, range = start } }, client)[1]
      loc.text = string.rep('  ', depth) .. item.name .. ' (' .. item.symbolType .. ')'
      table.insert(items, loc)
      for _, member in ipairs(item.members or {}) do
        add(uri, member, depth + 1)
      end
    end
    for _, file in ipairs(result.files) do
      for _, item in ipairs(file.items) do
        add(file.uri, item, 0)
      end
    end
    set_quickfix('structls outline ' .. target, items)
  end)
end

-- create defines the user commands.
function M.create()
  local function define(name, fn, opts)
    vim.api.nvim_create_user_command(name, fn, opts)
  end
  define('StructSearch', function(o) M.search(o.args) end, { nargs = '+', desc = 'structls: structural search (ast-grep pattern) to quickfix' })
  define('StructGrep', function(o) M.grep(o.args) end, { nargs = '+', desc = 'structls: regex search to quickfix' })
  define('StructMore', function() M.next_page() end, { nargs = 0, desc = 'structls: the next page of the last search' })
  define('StructReplace', function(o) M.replace(o.args) end, { nargs = '+', desc = 'structls: {pattern} => {rewrite}, previewed as a diff' })
  define('StructXray', function(o) M.xray(o.fargs) end, { nargs = '+', complete = 'file', desc = 'structls: X-Ray {driver} [{file.star}]' })
  define('StructOutline', function(o) M.outline(o.args) end, { nargs = '?', complete = 'file', desc = 'structls: outline of a file' })
  define('StructCancel', function() structls.cancel() end, { nargs = 0, desc = 'structls: cancel the running command' })
end

return M
