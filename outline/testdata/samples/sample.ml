open Printf
type shape = Circle of float | Square of float
let area s = 1.0
let pi = 3.14
module M = struct let x = 1 end
module type S = sig val x : int end
exception Oops of string
