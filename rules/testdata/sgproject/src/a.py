import ast
x = eval("1")
y = eval(z)
