{ pkgs ? import <nixpkgs> {} }:
let
  version = "1.0";
  build = x: x;
in { inherit version; app = build 1; }
