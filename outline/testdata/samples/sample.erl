-module(demo).
-export([start/0]).
-include("defs.hrl").
-record(state, {count = 0}).
-define(MAX, 10).
start() -> ok.
helper(X) -> X.
