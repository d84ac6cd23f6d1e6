#!/bin/bash
source ./lib.sh
NAME=value
export PATH_X=/bin
greet() { echo hi; }
function build { make; }
