module Demo
using LinearAlgebra
export area
struct Point
  x::Float64
end
abstract type Shape end
function area(s) 1.0 end
f(x) = x + 1
const PI2 = 6.28
end
