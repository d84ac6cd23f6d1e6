{ pkgs ? import <nixpkgs> {}, lib, ... }:
let
  version = "1.0";
  inherit (pkgs) stdenv;
  f = x: y: x + y;
in
stdenv.mkDerivation rec {
  pname = "demo";
  inherit version;
  src = ./src;
  buildInputs = with pkgs; [ go git ];
  meta = { description = "demo ${version}"; license = lib.licenses.mit; };
  doCheck = if version == "1.0" then true else false;
  result = f 1 2;
}
