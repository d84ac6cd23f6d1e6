void f() {
  mode_t mode = 0666;
  chmod("/tmp/foo", mode);
}
