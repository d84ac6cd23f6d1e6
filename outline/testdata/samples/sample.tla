---- MODULE Demo ----
EXTENDS Naturals
CONSTANT N
VARIABLE x
Init == x = 0
Next == x' = x + 1
====
