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
