local json = require("json")
local M = {}
function M.run(x) return x end
function M:method() end
local function helper() end
function global_fn() end
VERSION = "1"
return M
