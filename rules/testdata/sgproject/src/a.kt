fun f() { println(1) }
