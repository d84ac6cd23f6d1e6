puts value
foo(1)
