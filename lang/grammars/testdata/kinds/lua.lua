local M = {}
local function helper(a, b, ...)
  return a + b, select('#', ...)
end
function M.run(t)
  for i, v in ipairs(t) do
    if v > 1 and not t.skip then
      print(i, v)
    elseif v == nil then
      goto continue
    end
    ::continue::
  end
  local s = "a" .. 'b' .. [[long]]
  return setmetatable({ x = 1, [2] = 3 }, { __index = M }), #t
end
while true do break end
return M
