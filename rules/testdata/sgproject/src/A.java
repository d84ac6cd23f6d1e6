class A { void f() { System.out.println("x"); } }
