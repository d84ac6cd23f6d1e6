library(dplyr)
source("helpers.R")
area <- function(r) { pi * r^2 }
.hidden <- function() NULL
VALUE <- 3
