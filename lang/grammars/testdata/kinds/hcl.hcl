terraform {
  required_version = ">= 1.0"
}
variable "region" {
  type    = string
  default = "eu-west-1"
}
resource "aws_instance" "web" {
  ami           = data.aws_ami.ubuntu.id
  count         = var.enabled ? 2 : 0
  tags          = { Name = "web-${count.index}" }
  list          = [for s in var.subnets : upper(s) if s != ""]
}
locals {
  a = 1 + 2 * 3 - 4 > 5 && !var.b || var.c
  b = -1 * 2 + 3 / 4 % 5
  c = var.x == var.y ? "eq" : "ne"
}
